import { NotFoundError } from '@shiplog/errors';
import { requireUserId, type ServiceContext, secretLinkHandlers, secretLinks, serveRoutes } from '@shiplog/service-kit';
import type { RemindersEnv } from '../env.ts';
import { listReminders } from '../read-models/reminder-list/index.ts';
import { remindersCalendar } from './ics.ts';
import { calendarRoutes } from './routes.ts';

const feeds = secretLinks<{ user_id: string }>('reminders.calendar_feeds', 'user_id');

/**
 * The private calendar feed (beyond the spec): each user can make a secret link that calendar apps
 * subscribe to, replace it (the old one stops working) or revoke it (`secretLinks`).
 */
export function calendarApi(context: ServiceContext<RemindersEnv>) {
  const { pool, config } = context;
  const feedUrl = (token: string) => `${config.APP_URL.replace(/\/$/, '')}/api/calendar/${token}.ics`;

  const link = secretLinkHandlers(feeds, {
    db: pool,
    ownerOf: async (req) => ({ user_id: requireUserId(req) }),
    urlOf: feedUrl,
  });
  return serveRoutes(calendarRoutes, {
    'GET /reminders/calendar': link.state,
    'POST /reminders/calendar': link.replace,
    'DELETE /reminders/calendar': link.remove,

    'GET /calendar/:secret': async (req, res) => {
      const token = /^(.+)\.ics$/.exec(req.params.secret ?? '')?.[1];
      const feed = token ? await feeds.find(pool, token) : null;
      if (!feed) throw new NotFoundError('No such calendar', 'CALENDAR_NOT_FOUND');
      // The feed's user's own: the open reminders assigned to them, not the rest of their teams'.
      const reminders = (await listReminders(pool, feed.user_id)).filter(
        (r) => !r.isCompleted && r.assigneeId === feed.user_id,
      );
      res
        .type('text/calendar; charset=utf-8')
        .setHeader('Cache-Control', 'private, max-age=300')
        .send(remindersCalendar(reminders, { appUrl: config.APP_URL, now: context.now() }));
    },
  });
}
