import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';

/**
 * Every test file's setup (vitest.config.ts): a `console.error` during a test fails that test, as an
 * unhandled rejection already fails the run. Errors are logged through each process's logger; one
 * reaching the console is a failure nobody asserted on.
 */
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockRestore();
  if (calls.length > 0) {
    const first = calls[0]!.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(' ');
    throw new Error(`console.error was called ${calls.length} time(s) during the test; first: ${first}`);
  }
});
