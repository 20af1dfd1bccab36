import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { deployHookApi } from './deploy-hook/api.ts';
import { type ProjectsEnv, projectsEnv } from './env.ts';
import { importApi } from './history-import/api.ts';
import { presenceApi } from './presence/api.ts';
import { projectsApi } from './project/api.ts';
import { workspaceCascadeReaction } from './reactions/workspace-cascade/index.ts';
import { projectListProjection } from './read-models/project-list/index.ts';
import { workspaceMembers } from './read-models/workspace-members/index.ts';

/** projects: projects, their checklist, quick updates, recorded backups, deployments and releases, deploy webhooks, and imports from an export. Streams `project-<id>` and `history-import-<id>`. */
export const projectsService: ServiceDefinition<ProjectsEnv> = {
  name: 'projects',
  env: projectsEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [projectListProjection, workspaceMembers.projection],
  forgetUser: deleteUserRows(
    // A team workspace's project stays with the team when its maker goes (its events are the team's).
    { table: 'projects.project_list', unless: 'workspace_id IS NOT NULL' },
    'projects.deploy_hooks',
    'projects.workspace_members',
    'projects.project_presence',
  ),
  setup: (context) => ({
    ...servedTogether(projectsApi(context), deployHookApi(context), importApi(context), presenceApi(context)),
    consumers: [workspaceCascadeReaction(context)],
  }),
};
