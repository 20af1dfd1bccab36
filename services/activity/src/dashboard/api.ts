import { ValidationError } from '@shiplog/errors';
import { TIME_ZONE_MESSAGE } from '@shiplog/schemas';
import { requireUserId, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { ActivityEnv } from '../env.ts';
import { monthlyCosts } from '../read-models/cost-history/index.ts';
import { dashboardCounters, weeklyShipping } from '../read-models/timeline/index.ts';
import { dashboardRoutes } from './routes.ts';

/** PostgreSQL's "invalid parameter value": a zone `Intl` knows and the server's time zone data does not. */
const isUnknownZone = (error: unknown) => (error as { code?: string }).code === '22023';

/** The dashboard's figures: the stat cards' counters and the charts' series, read from both read models. */
export function dashboardApi(context: ServiceContext<ActivityEnv>) {
  const { pool } = context;

  return serveRoutes(dashboardRoutes, {
    'GET /dashboard/counters': async (req, res) => {
      res.json(await dashboardCounters(pool, requireUserId(req)));
    },

    // Deployments and releases per week over 12 weeks, and each project's monthly cost over 12 months.
    'GET /dashboard/charts': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { tz } = parsed.query;
      try {
        const [shipping, costs] = await Promise.all([weeklyShipping(pool, userId, tz), monthlyCosts(pool, userId, tz)]);
        res.json({ timeZone: tz, shipping, costs });
      } catch (error) {
        if (isUnknownZone(error)) throw new ValidationError({ tz: [TIME_ZONE_MESSAGE] });
        throw error;
      }
    },
  });
}
