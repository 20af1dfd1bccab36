import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the servers a test process started have logged (their warnings and errors), by name, for the
 * report of a test that fails (`report-failure-logs.ts`): a lagging consumer, a lost leadership or a
 * refused call shows there, where the test's own message cannot say it.
 */
const sources = new Map<string, () => string>();

/** Names what a server has logged so far (kept in memory, or a child process's output); answers how to stop watching it (at its stop). */
export function watchLog(name: string, output: () => string): () => void {
  sources.set(name, output);
  return () => {
    if (sources.get(name) === output) sources.delete(name);
  };
}

/** How much each watched log holds now. */
export function logMarks(): Map<string, number> {
  return new Map([...sources].map(([name, output]) => [name, output().length]));
}

/** What the watched logs have gained since `marks` (all of one started since), the last `limit` characters of each. */
export function loggedSince(marks: Map<string, number>, limit = 4000): string {
  return [...sources]
    .map(([name, output]) => {
      const text = output()
        .slice(marks.get(name) ?? 0)
        .trim();
      return text ? `── ${name}\n${text.slice(-limit)}` : '';
    })
    .filter(Boolean)
    .join('\n');
}

/**
 * Where a failed test's logs go: `npm test` (scripts/test-all.ts) names a folder in
 * SHIPLOG_FAILURE_LOGS and prints what is there at the end of its summary, since a long run's log is
 * often read from its tail only; without it, standard error.
 */
export function reportFailureLog(test: string, logged: string): void {
  const text = `What the servers logged during "${test}":\n${logged || '(nothing)'}\n`;
  const folder = process.env.SHIPLOG_FAILURE_LOGS;
  if (folder) appendFileSync(join(folder, 'failures.log'), `${text}\n`);
  else process.stderr.write(`\n${text}`);
}
