import type { Router } from 'express';

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
 * `/healthz` (the process answers) and `/readyz` (200 only when every check passes, else 503 with what
 * failed), the same for every service and the gateway.
 */
export function healthRoutes(app: Pick<Router, 'get'>, readiness: ReadinessChecks): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await runChecks(readiness);
    res.status(Object.values(checks).every((c) => c === 'ok') ? 200 : 503).json({ checks });
  });
}
