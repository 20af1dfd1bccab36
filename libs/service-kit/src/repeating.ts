import type { Logger } from './logger.ts';

/**
 * Work done again every `intervalMs` (a scheduler's tick): never two runs at once (a run still going
 * when the next is due skips it), a failure logged and the next run tried, and `stop` waits for the
 * run in progress.
 */
export function repeating(work: () => Promise<unknown>, intervalMs: number, logger: Logger, what: string) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | undefined;
  return {
    start() {
      timer = setInterval(() => {
        running ??= work()
          .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
          .finally(() => {
            running = undefined;
          });
      }, intervalMs);
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
