import type { IncomingMessage } from 'node:http';
import type { ServiceClients } from '@shiplog/service-kit';
import { callerFor } from '../session/session-cache.ts';
import { sessionHandle, type UserSessions } from '../session/user-sessions.ts';
import type { Action } from './action.ts';

/**
 * Turning push reminders on in this browser (`POST /api/reminders/push/subscriptions`): the gateway's,
 * because the device is recorded with the session it was turned on in, which only the gateway knows,
 * and ends with it (decision 044, session/push-devices.ts). The session is marked before reminders
 * keeps the device, so no device is kept for a session the sweep would not look at.
 */
export function pushDeviceActions(deps: {
  services: ServiceClients;
  sessions: UserSessions;
  /** The body's bytes as they came (see app.ts). */
  bodyOf: (req: IncomingMessage) => Buffer | undefined;
}): Record<'turnPushOn', Action> {
  const { services, sessions, bodyOf } = deps;
  return {
    async turnPushOn(req, res) {
      const user = req.session.user!;
      await sessions.turnedPushOn(user.id, req.sessionID);
      const answer = await services.call('reminders', {
        method: 'POST',
        path: `/sessions/${sessionHandle(req.sessionID)}/push-subscriptions`,
        body: bodyOf(req) ?? {},
        caller: callerFor(user),
      });
      res.status(answer.status).json(answer.body);
    },
  };
}
