import { dashboardChartsQuerySchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** The dashboard's figures (answered in `api.ts`). */
export const dashboardRoutes = declareRoutes({
  // For the gateway's GraphQL query (graphql.ts).
  'GET /dashboard/counters': {
    summary: 'The dashboard’s stat cards: the projects in all, in development and deployed, and the last 7 days’ new',
    access: 'user',
    internal: true,
    answer: z.object({
      totalProjects: z.number(),
      activeProjects: z.number(),
      completedProjects: z.number(),
      totalChange: z.number(),
      activeChange: z.number(),
      completedChange: z.number(),
    }),
  },
  'GET /dashboard/charts': {
    tag: 'Dashboard',
    summary: 'Shipping per week and monthly cost, in the browser’s time zone',
    access: 'user',
    query: dashboardChartsQuerySchema,
    answer: z.object({
      timeZone: z.string(),
      /** The last 12 weeks (their Mondays, `YYYY-MM-DD`), oldest first, and each week's count. */
      shipping: z.object({
        weeks: z.array(z.string()),
        deployments: z.array(z.number()),
        releases: z.array(z.number()),
      }),
      /** The last 12 months (`YYYY-MM`), oldest first, and each project's estimate in cents at each month's end. */
      costs: z.object({
        months: z.array(z.string()),
        projects: z.array(z.object({ projectId: z.string(), name: z.string(), costs: z.array(z.number()) })),
      }),
    }),
  },
});
