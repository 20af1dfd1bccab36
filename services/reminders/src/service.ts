import { join } from 'node:path';
import { createMailer, deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { pushSenderFor } from './adapters/web-push.ts';
import { calendarApi } from './calendar/api.ts';
import { type RemindersEnv, remindersEnv } from './env.ts';
import { pushApi } from './push/api.ts';
import { projectsReaction } from './reactions/project-cascade/index.ts';
import { reminderListProjection, teamReminder } from './read-models/reminder-list/index.ts';
import { remindersApi } from './reminder/api.ts';
import { createScheduler } from './timers/send-due-reminders/index.ts';

/** reminders: dated reminders on projects. Streams `reminder-<id>`. */
export const remindersService: ServiceDefinition<RemindersEnv> = {
  name: 'reminders',
  env: remindersEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [reminderListProjection],
  // Nothing more is sent to a deleted account: its reminders, schedule, projects, workspaces' memberships,
  // address and calendar link go. The reminders it wrote on a team's projects are the team's, and stay
  // (decision 056); those given to it reach nobody until someone else is given them.
  forgetUser: deleteUserRows(
    { table: 'reminders.project_reminders', unless: teamReminder.reminderId },
    'reminders.schedule',
    { table: 'reminders.reminder_list', unless: teamReminder.id },
    { table: 'reminders.projects', unless: 'workspace_id IS NOT NULL' },
    'reminders.workspace_members',
    'reminders.calendar_feeds',
    'reminders.push_subscriptions',
    'reminders.users',
  ),
  setup(context) {
    const { config } = context;
    const { push, close: closePushes } = pushSenderFor(config, context.metrics);
    const scheduler = createScheduler(
      context,
      createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger: context.logger }),
      push,
    );
    if (context.config.SCHEDULER_ENABLED === 'true') scheduler.start();
    return {
      // The feed's and push's fixed paths before the reminders' `/reminders/:id`.
      ...servedTogether(calendarApi(context), pushApi(context, push), remindersApi(context)),
      consumers: [projectsReaction(context)],
      onStop: async () => {
        await scheduler.stop();
        await closePushes();
      },
    };
  },
};
