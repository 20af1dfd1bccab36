import { defineConfig } from 'vitest/config';

// A console.error during any test fails it (see the file).
const setupFiles = ['./libs/testing/src/fail-on-console-error.ts'];
// A failed test's report ends with what the servers it ran against logged meanwhile (see the file).
const reportingSetupFiles = [...setupFiles, './libs/testing/src/report-failure-logs.ts'];

export default defineConfig({
  test: {
    // Three files at a time, browser tests included: most of a test's time is spent waiting on its
    // servers, so a third file fills the cores the waits leave idle (measured on 2026-11-29 on two cores:
    // the unit and integration tests alone 99 s at two, 86 s at three, with the same CPU-seconds; the
    // browser tests alone 141-145 s at two, 115 s at three, 74% busy against 91%). Three backends of
    // eight services held at most 48 of PostgreSQL's 100 connections.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          setupFiles,
          // Pure functions and components, none keeping state in a module or mocking one: a worker's files
          // share its imports instead of loading them each time (measured on 2026-11-29: the unit tests
          // took 37 s and 68 CPU-seconds alone isolated, 17 s and 32 CPU-seconds shared).
          isolate: false,
          include: ['{libs,services,gateway,system,cli,web,deploy}/**/*.unit.test.{ts,tsx}'],
          exclude: ['**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'int',
          setupFiles: reportingSetupFiles,
          // Each file starts its own backend on its own database, bus namespace and ports, and keeps no
          // state in modules: the files of a worker share its imports instead of loading them each time.
          isolate: false,
          include: ['{libs,services,gateway,system,cli}/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          // Each process makes its next file's database while the file before runs.
          globalSetup: ['./libs/testing/src/spare-copies.ts'],
          // A limit catches a test that hangs, not a slow one (speed is the benchmarks' to measure): on a
          // slow day, with the checks and the chaos run beside them, tests that take 2-4 s alone have
          // taken over 20 s (measured on 2026-11-29: 1,575 CPU-seconds in 823 s, 96% busy).
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // A small chaos run (bench/chaos): its own NATS, Redis and app processes, killed one at a time.
        test: {
          name: 'chaos',
          setupFiles,
          include: ['bench/chaos/**/*.chaos.test.ts'],
          testTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'e2e',
          setupFiles: reportingSetupFiles,
          include: ['web/e2e/**/*.e2e.test.ts'],
          // A worker's files run in one process and share one app (web/e2e/app.ts), which starts once a
          // worker instead of once a file; the global setup drops what the apps made when all are done.
          isolate: false,
          globalSetup: ['./web/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page's state is polled until it shows, as a locator waits: with three browsers and three
          // apps on two cores, a screen can take more than the default second to render its data.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
