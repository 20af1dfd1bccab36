import { randomBytes } from 'node:crypto';
import { dropTestResources } from '@shiplog/testing';
import type { TestProject } from 'vitest/node';

/**
 * The browser tests' run: a name for what its apps make (app.ts), and, once every file has run, the
 * databases and bus namespaces dropped (the apps themselves stop with their workers).
 */
export default function setup(project: TestProject) {
  const run = randomBytes(4).toString('hex');
  project.provide('e2eRun', run);
  return () => dropTestResources(`e2e_${run}`);
}
