import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError } from '@shiplog/errors';
import { requireUserId, type ServiceContext } from '@shiplog/service-kit';
import type { Router } from 'express';
import type { RemindersEnv } from '../env.ts';
import { listReminders } from '../read-models/reminder-list/index.ts';
import { remindersCalendar } from './ics.ts';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The private calendar feed (beyond the spec): each user can make a secret link that calendar apps
 * subscribe to, replace it (the old one stops working) or revoke it. Only the link's SHA-256 is kept:
 * the link is shown once, when made (decision 031).
 */
export function calendarApi(context: ServiceContext<RemindersEnv>) {
  const { pool, config } = context;
  const feedUrl = (token: string) => `${config.APP_URL.replace(/\/$/, '')}/api/calendar/${token}.ics`;

  function routes(router: Router) {
    router.get('/reminders/calendar', async (req, res) => {
      const { rows } = await pool.query<{ created_at: Date }>(
        'SELECT created_at FROM reminders.calendar_feeds WHERE user_id = $1',
        [requireUserId(req)],
      );
      res.json({ active: rows.length > 0, createdAt: rows[0]?.created_at.toISOString() ?? null });
    });

    router.post('/reminders/calendar', async (req, res) => {
      const token = randomBytes(24).toString('base64url');
      const { rows } = await pool.query<{ created_at: Date }>(
        `INSERT INTO reminders.calendar_feeds (user_id, token_hash) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()
         RETURNING created_at`,
        [requireUserId(req), hash(token)],
      );
      // The only time the link is given out.
      res.status(201).json({ url: feedUrl(token), createdAt: rows[0]!.created_at.toISOString() });
    });

    router.delete('/reminders/calendar', async (req, res) => {
      await pool.query('DELETE FROM reminders.calendar_feeds WHERE user_id = $1', [requireUserId(req)]);
      res.status(204).end();
    });

    // Public (the secret is the credential): calendar apps fetch it without a session.
    router.get('/calendar/:file', async (req, res) => {
      const token = /^([A-Za-z0-9_-]{20,64})\.ics$/.exec(req.params.file ?? '')?.[1];
      const { rows } = token
        ? await pool.query<{ user_id: string }>('SELECT user_id FROM reminders.calendar_feeds WHERE token_hash = $1', [
            hash(token),
          ])
        : { rows: [] };
      if (!rows[0]) throw new NotFoundError('No such calendar', 'CALENDAR_NOT_FOUND');
      const reminders = (await listReminders(pool, rows[0].user_id)).filter((r) => !r.isCompleted);
      res
        .type('text/calendar; charset=utf-8')
        .setHeader('Cache-Control', 'private, max-age=300')
        .send(remindersCalendar(reminders, { appUrl: config.APP_URL, now: new Date() }));
    });
  }

  return { routes };
}
