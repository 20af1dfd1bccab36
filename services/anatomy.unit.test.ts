import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serviceNames } from '@shiplog/service-kit';
import { describe, expect, it } from 'vitest';

/** Every service has the one shape services/README.md describes. */
const servicesDir = import.meta.dirname;
const services = readdirSync(servicesDir).filter((name) => statSync(join(servicesDir, name)).isDirectory());
const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** What is out of shape in one service, as readable lines. */
function strays(service: string): string[] {
  const root = join(servicesDir, service);
  const src = join(root, 'src');
  const found: string[] = [];
  for (const required of ['src/env.ts', 'src/service.ts', 'src/main.ts', 'src/routes.ts', 'migrations', 'test'])
    if (!existsSync(join(root, required))) found.push(`missing ${required}`);
  for (const entry of readdirSync(src)) {
    const path = join(src, entry);
    if (!isDir(path)) {
      if (!['env.ts', 'service.ts', 'main.ts', 'routes.ts'].includes(entry) && !/\.unit\.test\.ts$/.test(entry))
        found.push(`src/${entry}: only env.ts, service.ts, main.ts and routes.ts sit in src/`);
      continue;
    }
    if (entry === 'read-models' || entry === 'reactions') {
      for (const part of readdirSync(path))
        if (!existsSync(join(path, part, 'index.ts'))) found.push(`src/${entry}/${part}: has no index.ts`);
      continue;
    }
    if (entry === 'adapters') continue;
    const files = readdirSync(path);
    if (files.includes('decide.ts')) {
      // An aggregate: named for itself, with its decisions tested.
      for (const required of [`${entry}.ts`, 'decide.unit.test.ts'])
        if (!files.includes(required)) found.push(`src/${entry}: an aggregate (decide.ts) without ${required}`);
    } else if (!files.includes('api.ts')) {
      found.push(`src/${entry}: neither an aggregate (decide.ts) nor a route group (api.ts)`);
    }
  }
  // Routes are declared beside their handlers, and a declaration is data: the gateway reads it
  // without loading the service, so it imports schemas and other declarations, nothing else.
  for (const file of sourceFiles(src)) {
    const name = file.slice(src.length + 1);
    const dir = file.slice(0, file.lastIndexOf('/'));
    if (name.endsWith('/api.ts') && !existsSync(join(dir, 'routes.ts')))
      found.push(`src/${name}: its routes are declared in a routes.ts beside it`);
    if (!name.endsWith('routes.ts')) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^import [^;]*? from '([^']+)';/gms))
      if (
        !['@shiplog/schemas', '@shiplog/service-kit', 'zod'].includes(specifier!) &&
        !specifier!.endsWith('/routes.ts')
      )
        found.push(`src/${name}: a declaration imports schemas and declarations only, not ${specifier}`);
  }
  return found;
}

/** Every TypeScript file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (isDir(path)) return sourceFiles(path);
    return entry.endsWith('.ts') ? [path] : [];
  });
}

describe('the service anatomy', () => {
  it('finds every service of the directory, and no other', () => {
    expect(services.sort()).toEqual([...serviceNames].sort());
  });

  it.each(services)('%s has it', (service) => {
    expect(strays(service)).toEqual([]);
  });
});
