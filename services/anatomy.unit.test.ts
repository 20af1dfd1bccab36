import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { serviceNames } from '@shiplog/service-kit';
import { describe, expect, it } from 'vitest';

/** Every service has the one shape services/README.md describes. */
const servicesDir = import.meta.dirname;
const workspaceDir = dirname(servicesDir);
const services = readdirSync(servicesDir).filter((name) => statSync(join(servicesDir, name)).isDirectory());
const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** The folders of src/ that hold one part each, every part with its index.ts. */
const kinds = ['read-models', 'reactions', 'timers'];

/** What is out of shape in one service, as readable lines. */
function strays(service: string): string[] {
  const root = join(servicesDir, service);
  const src = join(root, 'src');
  const found: string[] = [];
  for (const required of ['src/env.ts', 'src/service.ts', 'src/main.ts', 'src/routes.ts', 'migrations'])
    if (!existsSync(join(root, required))) found.push(`missing ${required}`);
  for (const entry of readdirSync(src)) {
    const path = join(src, entry);
    if (!isDir(path)) {
      if (!['env.ts', 'service.ts', 'main.ts', 'routes.ts'].includes(entry) && !/\.unit\.test\.ts$/.test(entry))
        found.push(`src/${entry}: only env.ts, service.ts, main.ts and routes.ts sit in src/`);
      continue;
    }
    if (kinds.includes(entry)) {
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
  const files = sourceFiles(src);
  const name = (file: string) => relative(src, file);
  // Routes are declared beside their handlers, and a declaration is data: the gateway reads it
  // without loading the service, so it imports schemas and other declarations, nothing else.
  for (const file of files) {
    if (name(file).endsWith('/api.ts') && !existsSync(join(dirname(file), 'routes.ts')))
      found.push(`src/${name(file)}: its routes are declared in a routes.ts beside it`);
    if (!name(file).endsWith('routes.ts')) continue;
    for (const specifier of specifiersOf(readFileSync(file, 'utf8')))
      if (!['@shiplog/schemas', '@shiplog/service-kit', 'zod'].includes(specifier) && !specifier.endsWith('/routes.ts'))
        found.push(`src/${name(file)}: a declaration imports schemas and declarations only, not ${specifier}`);
  }
  found.push(...closedCores(src, files), ...handlersImported(service, root, src), ...partsOfTheirKind(src));
  found.push(...tablesOutOfPlace(service, root, src, files));
  return found;
}

/**
 * An aggregate's core is closed: `decide.ts` and `<aggregate>.ts` import nothing of the service but
 * each other and pure modules of their own folder (a recurrence's arithmetic, an expiry's warnings),
 * and those nothing outside it; none of them imports handlers or declarations.
 */
function closedCores(src: string, files: string[]): string[] {
  const found: string[] = [];
  for (const decide of files.filter((file) => file.endsWith('/decide.ts') && dirname(dirname(file)) === src)) {
    const folder = dirname(decide);
    const core = [decide, join(folder, `${folder.slice(src.length + 1)}.ts`)];
    const seen = new Set<string>();
    const todo = core.filter((file) => existsSync(file));
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const imported of serviceImportsOf(file)) {
        const by = `src/${relative(src, file)}`;
        if (dirname(imported) !== folder)
          found.push(`${by}: the aggregate's core imports its own folder only, not ${relative(src, imported)}`);
        else if (isHandlersOrDeclarations(imported))
          found.push(`${by}: the aggregate's core imports no handlers or declarations (${relative(src, imported)})`);
        else todo.push(imported);
      }
    }
  }
  return found;
}

/**
 * A folder's handlers (`api.ts`, `*-api.ts`; adapters/ holds clients, which may be named so) are its
 * own: only src/service.ts wires them, and the service's API tests (system/test/<name>/) drive them
 * over HTTP: what they import of the service, through its package's exports or a path, is no handler.
 */
function handlersImported(service: string, root: string, src: string): string[] {
  const found: string[] = [];
  const isHandlers = (file: string) =>
    !file.startsWith(join(src, 'adapters', '/')) && /(^|-)api\.ts$/.test(file.slice(file.lastIndexOf('/') + 1));
  for (const file of sourceFiles(src)) {
    if (file === join(src, 'service.ts')) continue;
    for (const imported of serviceImportsOf(file))
      if (isHandlers(imported) && dirname(imported) !== dirname(file))
        found.push(`${relative(root, file)}: imports another folder's handlers (${relative(root, imported)})`);
  }
  const tests = join(workspaceDir, 'system', 'test', service);
  const exported = exportsOf(root);
  const pkg = `@shiplog/${service}`;
  for (const file of sourceFiles(tests)) {
    const specifiers = specifiersOf(readFileSync(file, 'utf8'));
    const imported = [
      ...serviceImportsOf(file),
      ...specifiers
        .filter((specifier) => specifier === pkg || specifier.startsWith(`${pkg}/`))
        .flatMap((specifier) => exported.get(`.${specifier.slice(pkg.length)}`) ?? []),
    ];
    for (const target of imported)
      if (isHandlers(target))
        found.push(
          `${relative(workspaceDir, file)}: drives the service over HTTP, not its handlers (${relative(root, target)})`,
        );
  }
  return found;
}

/** The modules a service's package.json exports, by subpath (`.`, `./routes`…), as paths. */
function exportsOf(root: string): Map<string, string> {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports?: Record<string, string>;
  };
  return new Map(Object.entries(exports ?? {}).map(([subpath, target]) => [subpath, join(root, target)]));
}

/**
 * A reaction acts on the bus's events: its index.ts defines a consumer, told by its shape (an object
 * with `sources` and `handlers`, a `ConsumerDefinition`). A timer acts on a clock: its folder runs a
 * loop (service-kit's `repeating`) and defines no consumer, nor names one.
 */
function partsOfTheirKind(src: string): string[] {
  const found: string[] = [];
  const partsOf = (kind: string) => (isDir(join(src, kind)) ? readdirSync(join(src, kind)) : []);
  const textOf = (folder: string) =>
    sourceFiles(folder)
      .filter((file) => !file.endsWith('.test.ts'))
      .map((file) => withoutComments(readFileSync(file, 'utf8')))
      .join('\n');
  const definesConsumer = (text: string) => /\bsources\s*:/.test(text) && /\bhandlers\s*:/.test(text);
  const namesConsumer = (text: string) => /\b(Consumer|Projection)Definition\b/.test(text);
  const clock = (text: string) => /\brepeating\(/.test(text);
  for (const part of partsOf('reactions')) {
    const index = join(src, 'reactions', part, 'index.ts');
    const text = existsSync(index) ? withoutComments(readFileSync(index, 'utf8')) : '';
    if (!definesConsumer(text) || !namesConsumer(text))
      found.push(`src/reactions/${part}: a reaction's index.ts defines a consumer of the bus's events`);
    if (clock(textOf(join(src, 'reactions', part))))
      found.push(`src/reactions/${part}: runs on a clock (repeating): a timer (src/timers/)`);
  }
  for (const part of partsOf('timers')) {
    const text = textOf(join(src, 'timers', part));
    if (definesConsumer(text) || namesConsumer(text))
      found.push(`src/timers/${part}: a timer defines no consumer: a reaction (src/reactions/)`);
    if (!clock(text)) found.push(`src/timers/${part}: a timer runs on a clock (repeating)`);
  }
  return found;
}

/**
 * SQL over a table lives with the one part of the service that keeps it: a read model (the folder
 * under read-models/ that writes it, in its index.ts), or else the one module that writes it (an
 * outbox, a schedule, a credential kept as a hash). Nothing else names it in SQL, but a read model's
 * queries, which may read (never write) another table beside their own; src/service.ts names each in
 * `forgetUser`, and migrations and tests are not read here. A module is a folder of src/ (a read
 * model's, a reaction's and a timer's each their own); writing a table through a library counts
 * (`secretLinks('<schema>.<table>')`, and `knownProjectsIn('<schema>')`'s projects and users).
 */
function tablesOutOfPlace(schema: string, root: string, src: string, files: string[]): string[] {
  const tables = readdirSync(join(root, 'migrations'))
    .filter((file) => file.endsWith('.sql'))
    .flatMap((file) =>
      [...readFileSync(join(root, 'migrations', file), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map(
        ([, table]) => table!,
      ),
    );
  const moduleOf = (file: string) => {
    const parts = relative(src, file).split('/');
    if (parts.length === 1) return parts[0]!;
    return kinds.includes(parts[0]!) ? `${parts[0]}/${parts[1]}` : parts[0]!;
  };
  const isReadModel = (module: string) => module.startsWith('read-models/');
  const writers = new Map<string, Set<string>>();
  const mentions: { module: string; file: string; table: string }[] = [];
  for (const file of files.filter((f) => !f.endsWith('.test.ts'))) {
    let text = withoutComments(readFileSync(file, 'utf8'));
    // What an account's deletion deletes is each table's, named where the service is defined.
    if (file === join(src, 'service.ts')) text = text.replace(/forgetUser:\s*deleteUserRows\([^)]*\)/s, '');
    const module = moduleOf(file);
    const written = new Set<string>();
    for (const table of tables) {
      const named = `\\b${schema}\\.${table}\\b`;
      if (new RegExp(`(?:INSERT INTO|UPDATE|DELETE FROM)\\s+${named}`, 'i').test(text)) written.add(table);
      if (new RegExp(`secretLinks\\b[^(]*\\(\\s*'${named}'`).test(text)) written.add(table);
      if (new RegExp(`\\bknownProjectsIn\\(\\s*'${schema}'\\s*\\)`).test(text) && ['projects', 'users'].includes(table))
        written.add(table);
      if (written.has(table) || new RegExp(named).test(text)) mentions.push({ module, file, table });
    }
    for (const table of written) writers.set(table, new Set([...(writers.get(table) ?? []), module]));
  }
  const found: string[] = [];
  const owners = new Map<string, string>();
  for (const [table, by] of writers) {
    const readModels = [...by].filter(isReadModel);
    const owner = readModels.length === 1 ? readModels[0]! : by.size === 1 ? [...by][0]! : null;
    if (owner) owners.set(table, owner);
    else found.push(`${schema}.${table}: written by ${[...by].sort().join(' and ')}: one of them keeps it`);
  }
  for (const { module, file, table } of mentions) {
    if (isReadModel(module) && !file.endsWith(`${module}/index.ts`))
      found.push(`src/${relative(src, file)}: names ${schema}.${table}: a read model's SQL lives in its index.ts`);
    const owner = owners.get(table);
    if (!owner || owner === module) continue;
    // A read model's query may read what it shows beside its own rows.
    if (isReadModel(module) && !writers.get(table)?.has(module)) continue;
    found.push(`src/${relative(src, file)}: ${schema}.${table} is ${owner}'s: its SQL lives there`);
  }
  return found;
}

/** The files of the service that `file` imports (relative specifiers), as paths. */
function serviceImportsOf(file: string): string[] {
  return specifiersOf(readFileSync(file, 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => join(dirname(file), specifier));
}

/** What a module imports or re-exports, type-only or not, static or dynamic. */
function specifiersOf(text: string): string[] {
  return [
    ...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'/gms),
    ...text.matchAll(/^import\s*'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map(([, specifier]) => specifier!);
}

const isHandlersOrDeclarations = (file: string) => /(^|\/|-)(api|routes)\.ts$/.test(file);

/** The code without its comments (whole-line, block and trailing ones): what it runs. */
function withoutComments(text: string): string {
  return text
    .replace(/^\s*\/\*[\s\S]*?\*\//gm, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/\s.*$/gm, '');
}

/** Every TypeScript file under `dir`. */
function sourceFiles(dir: string): string[] {
  if (!isDir(dir)) return [];
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
