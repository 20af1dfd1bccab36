import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { type IntegrationsEnv, integrationsEnv } from './env.ts';
import { githubApi } from './github/api.ts';
import { integrationsApi } from './integration/api.ts';
import { deletedProjectsReaction } from './reactions/deleted-projects/index.ts';
import { integrationListProjection } from './read-models/integration-list/index.ts';

/**
 * integrations: users' connections to external domain-management APIs (test, diagnostics, the
 * domain list) and the import of domains as projects (streams `integrations-<userId>`), and to GitHub:
 * repositories imported as or joined to projects, and its webhook deliveries recorded on them
 * (streams `github-<userId>`).
 */
export const integrationsService: ServiceDefinition<IntegrationsEnv> = {
  name: 'integrations',
  env: integrationsEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [integrationListProjection],
  // The user's events, keys included, are already unreadable (crypto-shredded): the rows go too.
  forgetUser: deleteUserRows('integrations.api_integrations', 'integrations.github_hooks', 'integrations.github_links'),
  setup(context) {
    const api = integrationsApi(context);
    const github = githubApi(context);
    return {
      ...servedTogether(api, github),
      onStop: async () => {
        await Promise.all([api.close(), github.close()]);
      },
      consumers: [deletedProjectsReaction(context)],
    };
  },
};
