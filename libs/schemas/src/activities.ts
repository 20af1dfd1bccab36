import { z } from 'zod';

/** A paged list's query: `page` from 1, `limit` 1–100; without them, the first page of `defaultLimit`. */
export const pageQuerySchema = (defaultLimit: number) =>
  z.object({
    page: z.coerce
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be at least 1')
      .default(1),
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(100, 'limit must be at most 100')
      .default(defaultLimit),
  });

/** `GET /api/activities`: without `page` and `limit`, the first page of 10 (spec/core.md §9). */
export const activityPageQuerySchema = pageQuerySchema(10);

export const TIME_ZONE_MESSAGE = 'tz must be a time zone name such as Europe/Berlin';

/** `GET /api/dashboard/charts`: a time zone the browser names (`Intl`'s IANA names); weeks and months are counted in it. */
export const dashboardChartsQuerySchema = z.object({
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
