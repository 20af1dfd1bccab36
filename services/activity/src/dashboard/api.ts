import { ValidationError } from '@shiplog/errors';
import { parseInput, requireUserId, type ServiceContext } from '@shiplog/service-kit';
import type { Router } from 'express';
import { z } from 'zod';
import type { ActivityEnv } from '../env.ts';
import { monthlyCosts } from '../read-models/cost-history/index.ts';
import { dashboardCounters, weeklyShipping } from '../read-models/timeline/index.ts';

const TIME_ZONE_MESSAGE = 'tz must be a time zone name such as Europe/Berlin';

/** A time zone the browser names (`Intl`'s IANA names); weeks and months are counted in it. */
const chartsSchema = z.object({
  tz: z
    .string()
    .refine((name) => {
      if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return false;
      try {
        new Intl.DateTimeFormat('en', { timeZone: name });
        return true;
      } catch {
        return false;
      }
    }, TIME_ZONE_MESSAGE)
    .default('UTC'),
});

/** PostgreSQL's "invalid parameter value": a zone `Intl` knows and the server's time zone data does not. */
const isUnknownZone = (error: unknown) => (error as { code?: string }).code === '22023';

/** The dashboard's figures: the stat cards' counters and the charts' series, read from both read models. */
export function dashboardApi(context: ServiceContext<ActivityEnv>) {
  const { pool } = context;

  function routes(router: Router) {
    router.get('/dashboard/counters', async (req, res) => {
      res.json(await dashboardCounters(pool, requireUserId(req)));
    });

    // Deployments and releases per week over 12 weeks, and each project's monthly cost over 12 months.
    router.get('/dashboard/charts', async (req, res) => {
      const userId = requireUserId(req);
      const { tz } = parseInput(chartsSchema, req.query);
      try {
        const [shipping, costs] = await Promise.all([weeklyShipping(pool, userId, tz), monthlyCosts(pool, userId, tz)]);
        res.json({ timeZone: tz, shipping, costs });
      } catch (error) {
        if (isUnknownZone(error)) throw new ValidationError({ tz: [TIME_ZONE_MESSAGE] });
        throw error;
      }
    });
  }

  return { routes };
}
