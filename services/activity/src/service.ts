import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { dashboardApi } from './dashboard/api.ts';
import { type ActivityEnv, activityEnv } from './env.ts';
import { actorsProjection } from './read-models/actors/index.ts';
import { auditApi } from './read-models/audit/api.ts';
import { auditProjection } from './read-models/audit/index.ts';
import { costHistoryProjection } from './read-models/cost-history/index.ts';
import { activityApi } from './read-models/timeline/api.ts';
import { TEAM_PROJECT_ROWS, timelineProjection } from './read-models/timeline/index.ts';
import { workspaceMembers } from './read-models/workspace-members/index.ts';
import { createAuditExpiry } from './timers/expire-audit/index.ts';

/**
 * activity: the timeline, the dashboard counters and each project's cost over time, projections of
 * other services' events.
 */
export const activityService: ServiceDefinition<ActivityEnv> = {
  name: 'activity',
  env: activityEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [
    timelineProjection,
    costHistoryProjection,
    workspaceMembers.projection,
    actorsProjection,
    auditProjection,
  ],
  // What a deleted user did stays in their teams' audit logs, without the address they did it from
  // (the audit projection's `UserDeleted`).
  forgetUser: deleteUserRows(
    // A team workspace's project, its timeline and its costs stay with the team when its maker goes.
    { table: 'activity.activities', unless: TEAM_PROJECT_ROWS },
    { table: 'activity.project_stats', unless: 'workspace_id IS NOT NULL' },
    { table: 'activity.cost_history', unless: TEAM_PROJECT_ROWS },
    'activity.workspace_members',
    'activity.actors',
  ),
  setup(context) {
    const expiry = createAuditExpiry(context);
    expiry.start();
    return {
      ...servedTogether(activityApi(context), dashboardApi(context), auditApi(context)),
      onStop: expiry.stop,
    };
  },
};
