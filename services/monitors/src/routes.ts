import { alertChannelRoutes } from './alert-channel/routes.ts';
import { monitorRoutes } from './monitor/routes.ts';
import { pingRoutes } from './ping/routes.ts';
import { workflowRunRoutes } from './workflow-run/routes.ts';

/** Every route monitors answers, as declared beside its handler: what the gateway serves and documents. */
export const monitorsRoutes = { ...monitorRoutes, ...pingRoutes, ...alertChannelRoutes, ...workflowRunRoutes };
