import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { type IntegrationsEnv, integrationsEnv } from './env.ts';
import { integrationsApi } from './integration/api.ts';
import { deletedProjectsReaction } from './reactions/deleted-projects/index.ts';
import { integrationListProjection } from './read-models/integration-list/index.ts';

/**
 * integrations: users' connections to external domain-management APIs (test, diagnostics, the
 * domain list) and the import of domains as projects. Streams `integrations-<userId>`.
 */
export const integrationsService: ServiceDefinition<IntegrationsEnv> = {
  name: 'integrations',
  env: integrationsEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [integrationListProjection],
  // The user's events, keys included, are already unreadable (crypto-shredded): the rows go too.
  forgetUser: deleteUserRows('integrations.api_integrations'),
  setup(context) {
    const api = integrationsApi(context);
    return { ...servedTogether(api), onStop: api.close, consumers: [deletedProjectsReaction(context)] };
  },
};
