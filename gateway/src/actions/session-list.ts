import { AppError, NotFoundError } from '@shiplog/errors';
import type { SessionView } from '@shiplog/schemas';
import Bowser from 'bowser';
import { type SessionEntry, sessionHandle, type UserSessions } from '../session/user-sessions.ts';
import type { Action } from './action.ts';

/**
 * Settings › Sessions (OWASP ASVS 3.3.4): the account's signed-in sessions, each with the device and
 * address it signed in from and when it was last used, and a way to end any other one, or all others.
 */
export function sessionListActions(
  sessions: UserSessions,
): Record<'sessions' | 'endSession' | 'endOtherSessions', Action> {
  return {
    async sessions(req, res) {
      const list = await sessions.list(req.session.user!.id, req.sessionID);
      res.json(list.map(sessionView));
    },

    async endSession(req, res, { sessionId }) {
      if (sessionId === sessionHandle(req.sessionID))
        throw new AppError(400, 'CURRENT_SESSION', 'This is the session you are using: sign out to end it.');
      if (!(await sessions.endOne(req.session.user!.id, sessionId!))) throw new NotFoundError('Session not found');
      res.json({ message: 'Session signed out' });
    },

    async endOtherSessions(req, res) {
      await sessions.end(req.session.user!.id, req.sessionID);
      res.json({ message: 'Every other session signed out' });
    },
  };
}

/** A session as Settings shows it: the device read from its user agent. */
export function sessionView(entry: SessionEntry): SessionView {
  const agent = entry.userAgent ? Bowser.parse(entry.userAgent) : undefined;
  const deviceType = agent?.platform.type;
  return {
    id: entry.id,
    current: entry.current,
    browser: [agent?.browser.name, majorMinor(agent?.browser.version)].filter(Boolean).join(' '),
    os: [agent?.os.name, agent?.os.versionName ?? majorMinor(agent?.os.version)].filter(Boolean).join(' '),
    deviceType:
      deviceType === 'desktop' || deviceType === 'mobile' || deviceType === 'tablet' || deviceType === 'tv'
        ? deviceType
        : 'unknown',
    ipAddress: entry.ip,
    signedInAt: new Date(entry.since).toISOString(),
    lastSeenAt: new Date(entry.seenAt).toISOString(),
  };
}

/** "128.0.6613.84" → "128.0": enough to tell two browsers apart, without the noise. */
function majorMinor(version: string | undefined): string | undefined {
  return version?.split('.').slice(0, 2).join('.') || undefined;
}
