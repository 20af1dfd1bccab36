import type { Response, Router } from 'express';

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
