/**
 * The image as the Dockerfile builds it, read without a Docker engine: the build context `docker build .`
 * sends (the repository minus what .dockerignore names, with the matcher Docker's own rules follow,
 * @balena/dockerignore), and the Dockerfile's stages with their instructions. The dockerignore test and
 * `node bench/run.ts image` (which runs the production stage's install here) read them from here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { Ignore } from '@balena/dockerignore';

// A CommonJS module whose types say `export default`: required, it is the function itself.
const ignore = createRequire(import.meta.url)('@balena/dockerignore') as () => Ignore;

export const root = join(import.meta.dirname, '..');
const rules = ignore().add(readFileSync(join(root, '.dockerignore'), 'utf8'));

/** Whether `docker build .` leaves `path` (relative to the repository; a directory ends with `/`) out. */
export const ignoredByDocker = (path: string): boolean => rules.ignores(path);

/** Every file `docker build .` would send from this working tree. */
export function buildContext(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = relative(root, join(dir, entry.name));
    if (ignoredByDocker(entry.isDirectory() ? `${path}/` : path)) return [];
    return entry.isDirectory() ? buildContext(join(dir, entry.name)) : [path];
  });
}

export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  /** `FROM <from> AS <name>`; the last stage has no name. */
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages, each with its instructions (continued lines joined, comments left out). */
export function dockerfileStages(text = readFileSync(join(root, 'Dockerfile'), 'utf8')): Stage[] {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [, from = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ from, ...(name ? { name } : {}), instructions: [] });
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}
