import { afterEach, beforeEach } from 'vitest';
import { loggedSince, logMarks, reportFailureLog } from './failure-logs.ts';

/**
 * The integration and browser tests' setup (vitest.config.ts): a failed test's report comes with what
 * the servers it ran against logged meanwhile (failure-logs.ts).
 */
let marks = new Map<string, number>();

beforeEach(() => {
  marks = logMarks();
});

afterEach(({ task }) => {
  if (task.result?.state === 'fail') reportFailureLog(task.fullName, loggedSince(marks));
});
