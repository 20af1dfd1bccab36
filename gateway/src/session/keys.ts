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

/**
 * The sessions that turned push reminders on in a browser, until the reminders service has forgotten
 * their devices: a sorted set of `<userId> <sid>`, each scored with when to look at it next (the
 * session's end as last seen; 0 once it has ended). See push-devices.ts.
 */
export const pushSessionsKey = (config: Pick<GatewayEnv, 'BUS_NAMESPACE'>) => `${config.BUS_NAMESPACE}:push-sessions`;
export const pushSessionMember = (userId: string, sid: string) => `${userId} ${sid}`;
