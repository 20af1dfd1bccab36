import { assistantRoutes } from './assistant/routes.ts';
import { dailyUsageRoutes } from './daily-usage/routes.ts';

/** Every route chat answers, as declared beside its handler: what the gateway serves and documents. */
export const chatRoutes = { ...dailyUsageRoutes, ...assistantRoutes };
