import { githubRoutes } from './github/routes.ts';
import { integrationRoutes } from './integration/routes.ts';

/** Every route integrations answers, as declared beside its handler: what the gateway serves and documents. */
export const integrationsRoutes = { ...integrationRoutes, ...githubRoutes };
