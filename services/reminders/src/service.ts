import { join } from 'node:path';
import type { ServiceDefinition } from '@shiplog/service-kit';
import { calendarApi } from './calendar/api.ts';
import { type RemindersEnv, remindersEnv } from './env.ts';
import { projectsReaction } from './read-models/projects.ts';
import { reminderListProjection } from './read-models/reminder-list.ts';
import { remindersApi } from './reminder/api.ts';
import { createMailer } from './scheduler/mailer.ts';
import { createScheduler } from './scheduler/scheduler.ts';

/** reminders: dated reminders on projects. Streams `reminder-<id>`. */
export const remindersService: ServiceDefinition<RemindersEnv> = {
  name: 'reminders',
  env: remindersEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [reminderListProjection],
  // Nothing more is sent to a deleted account: its reminders, schedule, projects, address and calendar link go.
  async forgetUser(userId, tx) {
    await tx.query(
      `DELETE FROM reminders.project_reminders
       WHERE project_id IN (SELECT project_id FROM reminders.projects WHERE user_id = $1)`,
      [userId],
    );
    for (const table of ['schedule', 'reminder_list', 'projects', 'calendar_feeds', 'users']) {
      await tx.query(`DELETE FROM reminders.${table} WHERE user_id = $1`, [userId]);
    }
  },
  setup(context) {
    const scheduler = createScheduler(
      context,
      createMailer({ smtpUrl: context.config.SMTP_URL, from: context.config.MAIL_FROM, logger: context.logger }),
    );
    if (context.config.SCHEDULER_ENABLED === 'true') scheduler.start();
    const reminders = remindersApi(context);
    const calendar = calendarApi(context);
    return {
      routes: (router) => {
        // The feed's fixed paths before the reminders' `/reminders/:id`.
        calendar.routes(router);
        reminders.routes(router);
      },
      consumers: [projectsReaction(context)],
      onStop: () => scheduler.stop(),
    };
  },
};
