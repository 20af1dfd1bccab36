/**
 * The image's build context: `docker build .` sends the repository minus what .dockerignore names, and
 * the Dockerfile's `COPY . .` puts all of it into the image. Listed here with the same matcher Docker's
 * own rules follow (@balena/dockerignore), so a local secret or key that would enter the image fails
 * the test before any image is built.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oneProcessOptions } from '../scripts/app-processes.ts';
import { buildContext, dockerfileStages, ignoredByDocker, root } from './image.ts';

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
      expect(ignoredByDocker(path), path).toBe(true);
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

  it('downloads the dependencies from the lockfile before the source arrives, and runs production dependencies only', () => {
    const stages = dockerfileStages();
    const named = (name: string) => stages.find((s) => s.name === name)!;
    // The first stage sees the lockfile alone: a change to the code reuses its download.
    const first = stages[0]!;
    const copies = first.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toEqual(['pnpm-lock.yaml pnpm-workspace.yaml ./']);
    expect(first.instructions.some((i) => i.keyword === 'RUN' && /pnpm fetch/.test(i.args))).toBe(true);
    // The code arrives in later stages, which install from that download without the network.
    for (const name of ['build', 'production']) {
      expect(named(name).from).toBe(first.name);
      const install = named(name).instructions.find((i) => i.keyword === 'RUN' && /pnpm install/.test(i.args));
      expect(install?.args, name).toContain('--offline');
    }
    expect(named('production').instructions.find((i) => /pnpm install/.test(i.args))?.args).toContain('--prod');
    // What runs holds the production stage and the built web app, nothing of the build's tools.
    const runtime = stages.at(-1)!;
    expect(runtime.name).toBeUndefined();
    expect(runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args)).toEqual([
      '--from=production /app /app',
      '--from=build /app/web/dist /app/web/dist',
    ]);
    // By default, the whole app in one process, run as a non-root user.
    const cmd = JSON.parse(runtime.instructions.find((i) => i.keyword === 'CMD')!.args) as string[];
    expect(cmd).toEqual(['node', ...oneProcessOptions, 'scripts/one-process.ts']);
    expect(existsSync(join(root, cmd.at(-1)!))).toBe(true);
    expect(runtime.instructions.find((i) => i.keyword === 'USER')?.args).toBe('node');
  });

  it('runs packages that declare every package their code imports: the image installs nothing else', () => {
    const packages = [
      'gateway',
      ...['libs', 'services'].flatMap((group) =>
        readdirSync(join(root, group), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => `${group}/${e.name}`),
      ),
    ].filter((dir) => dir !== 'libs/testing');
    const sources = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return sources(path);
        return /\.tsx?$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
      });
    const undeclared: string[] = [];
    for (const dir of packages) {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
      const declared = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
      for (const file of sources(join(dir, 'src'))) {
        // The store's contract suite is the tests' (vitest), exported for them alone.
        if (file === join('libs', 'event-store', 'src', 'contract.ts')) continue;
        const text = readFileSync(join(root, file), 'utf8');
        for (const [, typeOnly, specifier] of text.matchAll(
          /^\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^'.][^']*)'/gm,
        )) {
          if (typeOnly || specifier!.startsWith('node:') || builtinModules.includes(specifier!)) continue;
          const name = specifier!
            .split('/')
            .slice(0, specifier!.startsWith('@') ? 2 : 1)
            .join('/');
          if (!declared.has(name)) undeclared.push(`${file} imports ${name}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });
});
