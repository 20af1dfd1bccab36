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
 * `/healthz` (the process answers) and `/readyz` (200 only when every check of its own passes, else 503),
 * the same for every service and the gateway. A load balancer reads `/readyz` unauthenticated, so it
 * says only `ok` or `failed` of each check; what failed (an address, an error) is shown to whom may
 * read the metrics (`access`). `system` adds `/readyz/system`: the same answer over the process's own
 * checks and those of what it calls (the gateway's view of every service), for an operator, not for
 * a load balancer (one service down must not take every process that calls it out of rotation). It
 * costs a call to every service, so it answers only whom `access` allows, as `/metrics` does.
 */
export function healthRoutes(
  app: Pick<Router, 'get'>,
  readiness: ReadinessChecks,
  options: { system?: ReadinessChecks; access: MetricsAccess },
): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const answer =
    (checks: ReadinessChecks, detailed: (req: Request) => boolean) => async (req: Request, res: Response) => {
      const results = await runChecks(checks);
      const ready = Object.values(results).every((c) => c === 'ok');
      const shown = detailed(req)
        ? results
        : Object.fromEntries(
            Object.entries(results).map(([name, result]) => [name, result === 'ok' ? 'ok' : 'failed']),
          );
      res.status(ready ? 200 : 503).json({ checks: shown });
    };
  app.get(
    '/readyz',
    answer(readiness, (req) => mayRead(req, options.access)),
  );
  if (options.system) {
    const system = answer({ ...readiness, ...options.system }, () => true);
    app.get('/readyz/system', (req: Request, res: Response) => {
      authorise(req, options.access);
      return system(req, res);
    });
  }
}

/** Who may read `/metrics`: a scraper holding `token` as a bearer token; without one, anyone outside production. */
export interface MetricsAccess {
  token?: string | undefined;
  production: boolean;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request may read what an operator reads (`MetricsAccess`). */
function mayRead(req: Request, access: MetricsAccess): boolean {
  if (!access.token) return !access.production;
  const given = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
  return timingSafeEqual(digest(given), digest(access.token));
}

/** As `mayRead`, or the refusal: 401 without the token when one is set, a 404 in production without one. */
function authorise(req: Request, access: MetricsAccess): void {
  if (mayRead(req, access)) return;
  if (access.token) throw new UnauthorizedError('A metrics token is required');
  throw new NotFoundError('Not found');
}

/**
 * `/metrics` in Prometheus's text format: with `METRICS_TOKEN` set, only for `Authorization: Bearer
 * <token>` (401 otherwise); unset, open in development and tests and absent (404) in production, so a
 * deployment never shows its figures to the network by default.
 */
export function metricsRoute(app: Pick<Router, 'get'>, metrics: Metrics, access: MetricsAccess): void {
  app.get('/metrics', async (req: Request, res: Response) => {
    authorise(req, access);
    res.setHeader('content-type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  });
}
