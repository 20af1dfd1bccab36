import { join } from 'node:path';
import { Outbound } from '@shiplog/outbound';
import { createMailer, deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { alertChannelsApi } from './alert-channel/api.ts';
import { type MonitorsEnv, monitorsEnv } from './env.ts';
import { monitorsApi } from './monitor/api.ts';
import { pingApi } from './ping/api.ts';
import { alertOutboxReaction } from './reactions/alert-outbox/index.ts';
import { projectsReaction } from './reactions/project-cascade/index.ts';
import { monitorListProjection } from './read-models/monitor-list/index.ts';
import { plansProjection } from './read-models/plans/index.ts';
import { checkOutbound, createChecker } from './timers/run-checks/index.ts';
import { createAlertSender } from './timers/send-alerts/index.ts';
import { workflowRunApi } from './workflow-run/api.ts';

/** monitors: checks of what users shipped, cron pings, incidents and alerts. Streams `monitor-<id>`. */
export const monitorsService: ServiceDefinition<MonitorsEnv> = {
  name: 'monitors',
  env: monitorsEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [monitorListProjection, plansProjection],
  // Nothing more is checked or sent for a deleted account: its monitors, results and incidents go.
  forgetUser: deleteUserRows(
    'monitors.monitor_list',
    'monitors.incidents',
    'monitors.check_schedule',
    'monitors.check_results',
    'monitors.check_rollups',
    'monitors.project_monitors',
    'monitors.recent_deploys',
    'monitors.last_runs',
    'monitors.ping_links',
    'monitors.ping_runs',
    'monitors.alert_deliveries',
    'monitors.plans',
    'monitors.maintenance',
    { table: 'monitors.projects', unless: 'workspace_id IS NOT NULL' },
    'monitors.workspace_members',
    'monitors.users',
    'monitors.workspace_alert_mail_off',
  ),
  setup(context) {
    const checks = checkOutbound({
      allowedHosts: context.config.MONITOR_ALLOWED_HOSTS,
      timeoutMs: context.config.CHECK_TIMEOUT_MS,
      observe: (outcome) => context.metrics.outbound('monitor-check', outcome),
    });
    const checker = createChecker(context, checks);
    // Alerts by email, and to webhooks, Slack, Discord and ntfy: through the SSRF guard too, to the same allowed hosts.
    const mailer = createMailer({
      smtpUrl: context.config.SMTP_URL,
      from: context.config.MAIL_FROM,
      logger: context.logger,
    });
    const alerts = new Outbound({
      allowedHosts: context.config.MONITOR_ALLOWED_HOSTS,
      timeoutMs: context.config.CHECK_TIMEOUT_MS,
      maxBytes: 64 * 1024,
      observe: (outcome) => context.metrics.outbound('alert-webhook', outcome),
    });
    const sender = createAlertSender(context, alerts, mailer);
    if (context.config.CHECKER_ENABLED === 'true') {
      checker.start();
      sender.start();
    }
    return {
      ...servedTogether(
        monitorsApi(context, checks),
        pingApi(context),
        workflowRunApi(context),
        alertChannelsApi(context, alerts, sender, mailer),
      ),
      consumers: [projectsReaction(context), alertOutboxReaction(context, mailer)],
      onStop: async () => {
        await Promise.all([checker.stop(), sender.stop()]);
        await alerts.close();
        mailer.close();
      },
    };
  },
};
