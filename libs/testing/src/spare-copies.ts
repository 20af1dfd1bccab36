import { randomBytes } from 'node:crypto';
import { dropSpareCopies, SPARE_COPIES_VARIABLE } from './index.ts';

/**
 * The integration tests' global setup: names the run, so that each test process makes its next
 * file's database while the file before runs (createTestDatabase), and drops the copies left over
 * once every file has run.
 */
export default function setup() {
  const run = randomBytes(4).toString('hex');
  process.env[SPARE_COPIES_VARIABLE] = run;
  return () => dropSpareCopies(run);
}
