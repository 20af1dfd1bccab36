import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { appLog } from './app.ts';

/**
 * The browser tests' setup (vitest.config.ts): a failed test's report comes with what the app logged
 * while it ran, where a lagging consumer, a lost leadership or a refused call shows. `npm test`
 * (scripts/test-all.ts) names a folder in SHIPLOG_FAILURE_LOGS and prints what is there at the end of
 * its summary, since a long run's log is often read from its tail only; without it, it goes to stderr.
 */
let from = 0;

beforeEach(() => {
  from = appLog().length;
});

afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  const logged = appLog().slice(from).trim().slice(-4000) || '(nothing)';
  const text = `What the app logged during "${task.fullName}":\n${logged}\n`;
  const folder = process.env.SHIPLOG_FAILURE_LOGS;
  if (folder) appendFileSync(join(folder, 'failures.log'), `${text}\n`);
  else process.stderr.write(`\n${text}`);
});
