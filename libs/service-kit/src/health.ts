/** Named checks, each given 2 s: 'ok', or what failed. `/readyz` of every process answers from these. */
export async function runChecks(checks: Record<string, () => Promise<unknown>>): Promise<Record<string, string>> {
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
