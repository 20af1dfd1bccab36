import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition } from '@shiplog/service-kit';
import { type ProjectsEnv, projectsEnv } from './env.ts';
import { projectsApi } from './project/api.ts';
import { projectListProjection } from './read-models/project-list/index.ts';

/** projects: projects, their checklist, quick updates and recorded backups, deployments and releases. Streams `project-<id>`. */
export const projectsService: ServiceDefinition<ProjectsEnv> = {
  name: 'projects',
  env: projectsEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [projectListProjection],
  forgetUser: deleteUserRows('projects.project_list'),
  setup(context) {
    const { routes, reads } = projectsApi(context);
    return { routes, reads };
  },
};
