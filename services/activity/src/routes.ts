import { dashboardRoutes } from './dashboard/routes.ts';
import { auditRoutes } from './read-models/audit/routes.ts';
import { timelineRoutes } from './read-models/timeline/routes.ts';

/** Every route activity answers, as declared beside its handler: what the gateway serves and documents. */
export const activityRoutes = { ...timelineRoutes, ...dashboardRoutes, ...auditRoutes };
