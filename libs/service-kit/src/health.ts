import { createHash, timingSafeEqual } from 'node:crypto';
import { NotFoundError, UnauthorizedError } from '@shiplog/errors';
import type { Metrics } from '@shiplog/telemetry/metrics';
import type { Request, Response, Router } from 'express';

export type ReadinessChecks = Record<string, () => Promise<unknown>>;

/** Named checks, each given 2 s: 'ok', or what failed. `/readyz` of every process answers from these. */
export async function runChecks(checks: ReadinessChecks): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) =>
            AbortSignal.timeout(2000).addEventListener('abort', () => reject(new Error('timed out after 2000 ms'))),
          ),
        ]);
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof Error ? error.message : 'failed'] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * `/healthz` (the process answers) and `/readyz` (200 only when every check of its own passes, else 503
 * with what failed), the same for every service and the gateway. `system` adds `/readyz/system`: the
 * same answer over the process's own checks and those of what it calls (the gateway's view of every
 * service), for an operator, not for a load balancer: one service down must not take every process
 * that calls it out of rotation.
 */
export function healthRoutes(
  app: Pick<Router, 'get'>,
  readiness: ReadinessChecks,
  options: { system?: ReadinessChecks } = {},
): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const answer = (checks: ReadinessChecks) => async (_req: unknown, res: Response) => {
    const results = await runChecks(checks);
    res.status(Object.values(results).every((c) => c === 'ok') ? 200 : 503).json({ checks: results });
  };
  app.get('/readyz', answer(readiness));
  if (options.system) app.get('/readyz/system', answer({ ...readiness, ...options.system }));
}

/** Who may read `/metrics`: a scraper holding `token` as a bearer token; without one, anyone outside production. */
export interface MetricsAccess {
  token?: string | undefined;
  production: boolean;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `/metrics` in Prometheus's text format: with `METRICS_TOKEN` set, only for `Authorization: Bearer
 * <token>` (401 otherwise); unset, open in development and tests and absent (404) in production, so a
 * deployment never shows its figures to the network by default.
 */
export function metricsRoute(app: Pick<Router, 'get'>, metrics: Metrics, access: MetricsAccess): void {
  app.get('/metrics', async (req: Request, res: Response) => {
    if (access.token) {
      const given = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!timingSafeEqual(digest(given), digest(access.token)))
        throw new UnauthorizedError('A metrics token is required');
    } else if (access.production) throw new NotFoundError('Not found');
    res.setHeader('content-type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  });
}
