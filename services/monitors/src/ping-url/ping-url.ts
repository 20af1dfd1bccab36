import type { EventOf } from '@shiplog/events';

/**
 * A project's cron ping URL, as its `ping-url-<projectId>` stream tells it: made (replacing one, or
 * not) and turned off, by whom and from where (the events' metadata), for a team's audit log. The
 * secret's hash is the ping table's (ping/runs.ts), which says whether there is one: the stream only
 * records, and is appended to without being read.
 */
export type PingUrlEvent = EventOf<'PingUrlMade'> | EventOf<'PingUrlTurnedOff'>;

export const pingUrlStream = (projectId: string) => `ping-url-${projectId}`;

/** Nothing is decided from the stream's history. */
export type PingUrlState = null;
export const initialPingUrl = (): PingUrlState => null;
export const evolvePingUrl = (state: PingUrlState, _event: PingUrlEvent): PingUrlState => state;
