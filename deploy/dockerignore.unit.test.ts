/**
 * The image's build context: `docker build .` sends the repository minus what .dockerignore names, and
 * the Dockerfile's `COPY . .` puts all of it into the image. Listed here with the same matcher Docker's
 * own rules follow (@balena/dockerignore), so a local secret or key that would enter the image fails
 * the test before any image is built.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ignore from '@balena/dockerignore';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const rules = ignore().add(readFileSync(join(root, '.dockerignore'), 'utf8'));

/** Every file `docker build .` would send from this working tree. */
function buildContext(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = relative(root, join(dir, entry.name));
    if (rules.ignores(entry.isDirectory() ? `${path}/` : path)) return [];
    return entry.isDirectory() ? buildContext(join(dir, entry.name)) : [path];
  });
}

describe('the image build context', () => {
  it('never holds an environment file, local data or a private key, wherever it sits', () => {
    for (const path of [
      '.env',
      '.env.production',
      '.env.local',
      'services/identity/.env',
      'gateway/.env.test',
      '.data/dev-secrets/SESSION_SECRET',
      '.data/postgres/PG_VERSION',
      'certs/server.key',
      'deploy/tls.pem',
      '.npmrc',
      '.git/config',
      'node_modules/pg/package.json',
    ])
      expect(rules.ignores(path), path).toBe(true);
  });

  it('holds what the Dockerfile builds from, and nothing secret from this working tree', () => {
    const context = buildContext();
    for (const needed of [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'gateway/src/main.ts',
      'web/index.html',
    ])
      expect(context, needed).toContain(needed);
    expect(context.filter((path) => /(^|\/)\.env(\.|$)|\.(pem|key|p12|pfx)$|^\.data\//.test(path))).toEqual([]);
  });

  it('puts no secret into the image by a build argument or an ENV line', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).not.toMatch(/^\s*(ARG|ENV)\s+\S*(SECRET|PASSWORD|KEY|TOKEN)/im);
    expect(dockerfile).not.toMatch(/COPY\s+\S*\.env/);
  });
});
