import { deployHookRoutes } from './deploy-hook/routes.ts';
import { historyImportRoutes } from './history-import/routes.ts';
import { presenceRoutes } from './presence/routes.ts';
import { projectRoutes } from './project/routes.ts';

/** Every route projects answers, as declared beside its handler: what the gateway serves and documents. */
export const projectsRoutes = { ...projectRoutes, ...deployHookRoutes, ...historyImportRoutes, ...presenceRoutes };
