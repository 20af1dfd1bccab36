import { join } from 'node:path';
import { Outbound } from '@shiplog/outbound';
import { createMailer, deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { alertChannelsApi } from './alert-channel/api.ts';
import { type MonitorsEnv, monitorsEnv } from './env.ts';
import { monitorsApi } from './monitor/api.ts';
import { pingApi } from './ping/api.ts';
import { alertOutboxReaction } from './reactions/alert-outbox/index.ts';
import { projectsReaction } from './reactions/project-cascade/index.ts';
import { knownProjects } from './read-models/known-projects/index.ts';
import { monitorListProjection, teamMonitor } from './read-models/monitor-list/index.ts';
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
  // Nothing more is checked or sent for a deleted account: its monitors, results and incidents go. What
  // it made or recorded on a team's projects is the team's, and stays (decision 057): the monitors with
  // their checks and incidents, the runs a ping URL recorded, the deployments a check names. A ping URL
  // it made goes (it acts as its maker, as after a removal from the workspace).
  forgetUser: deleteUserRows(
    { table: 'monitors.monitor_list', unless: teamMonitor },
    { table: 'monitors.incidents', unless: teamMonitor },
    { table: 'monitors.check_schedule', unless: teamMonitor },
    { table: 'monitors.check_results', unless: teamMonitor },
    { table: 'monitors.check_rollups', unless: teamMonitor },
    { table: 'monitors.project_monitors', unless: teamMonitor },
    { table: 'monitors.recent_deploys', unless: knownProjects.ofTeamProject },
    { table: 'monitors.last_runs', unless: knownProjects.ofTeamProject },
    'monitors.ping_links',
    { table: 'monitors.ping_runs', unless: knownProjects.ofTeamProject },
    { table: 'monitors.maintenance', unless: knownProjects.ofTeamProject },
    'monitors.alert_deliveries',
    'monitors.plans',
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
