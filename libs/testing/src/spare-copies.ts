import { randomBytes } from 'node:crypto';
import { dropSpareCopies, dropStaleSpareCopies, SPARE_COPIES_VARIABLE } from './index.ts';

/**
 * The integration tests' global setup: names the run, so that each test process makes its next
 * file's database while the file before runs (createTestDatabase), and drops the copies left over
 * once every file has run (and those that runs ended long ago without dropping left).
 */
export default async function setup() {
  await dropStaleSpareCopies();
  const run = randomBytes(4).toString('hex');
  process.env[SPARE_COPIES_VARIABLE] = run;
  return () => dropSpareCopies(run);
}
