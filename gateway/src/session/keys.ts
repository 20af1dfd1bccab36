import type { GatewayEnv } from '../env.ts';

/** Where the sessions live in Redis, and what is kept beside them. */

/** A session, as express-session stores it: `<prefix><sid>`. */
export const sessionPrefix = (config: Pick<GatewayEnv, 'BUS_NAMESPACE'>) => `${config.BUS_NAMESPACE}:sess:`;

/** Each user's session ids: a Redis set, so all of a user's sessions (or all but one) can be ended. */
export const userSessionsKey = (config: Pick<GatewayEnv, 'BUS_NAMESPACE'>, userId: string) =>
  `${config.BUS_NAMESPACE}:user-sessions:${userId}`;

/**
 * What Settings › Sessions shows of each: a Redis hash per user, field `<sid>` the device and address it
 * signed in from (JSON), field `<sid>:seen` when it was last used (ms).
 */
export const sessionInfoKey = (config: Pick<GatewayEnv, 'BUS_NAMESPACE'>, userId: string) =>
  `${config.BUS_NAMESPACE}:session-info:${userId}`;
export const seenField = (sid: string) => `${sid}:seen`;
