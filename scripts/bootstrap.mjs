#!/usr/bin/env node
// The newcomer's entry point: `npm start` / `npm test` (and `pnpm start` / `pnpm test`) land here.
// It must run on any Node from 20 with only npm available, so it is plain JavaScript with no dependencies.
// Steps: Node 24 (from the `node@24` npm package when the local one is older) → pnpm (pinned) →
// dependencies (frozen lockfile) → for tests and benchmarks, Debian's Chromium when missing →
// PostgreSQL / NATS / Redis (used if answering; else started from their binaries with data under
// .data/, or SHIPLOG_DATA_DIR; binaries that are missing are installed first, with apt-get as root or
// through a sudo that asks nothing, or with Homebrew on macOS; else a clear message) → the requested
// task under Node 24. `node scripts/bootstrap.mjs stores` does only the stores' part.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const dataDir = process.env.SHIPLOG_DATA_DIR || join(root, '.data');
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmVersion = rootPackage.packageManager.replace(/^pnpm@/, '').split('+')[0];
const NODE_MAJOR = 24;

const tasks = {
  start: ['run', 'app:start'],
  test: ['run', 'test:all'],
  bench: ['run', 'bench:all'],
  chaos: ['run', 'chaos:run'],
  stores: null,
};

function log(message) {
  process.stdout.write(`[setup] ${message}\n`);
}

function fail(message) {
  process.stderr.write(`\n[setup] ${message}\n\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) fail(`'${command} ${args.join(' ')}' failed (exit ${result.status}).`);
}

function nodeMajor(binary) {
  try {
    return Number(execFileSync(binary, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim());
  } catch {
    return 0;
  }
}

/** Node 24 and pnpm, installed into .tools/ from the npm registry when missing. */
function ensureToolchain() {
  const localNode = join(tools, 'node_modules', 'node', 'bin', 'node');
  const localPnpm = join(tools, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  const useSystemNode = Number(process.versions.node.split('.')[0]) >= NODE_MAJOR;
  const nodeReady = useSystemNode || nodeMajor(localNode) >= NODE_MAJOR;
  const pnpmReady =
    existsSync(localPnpm) &&
    JSON.parse(readFileSync(join(tools, 'node_modules', 'pnpm', 'package.json'), 'utf8')).version === pnpmVersion;
  if (!nodeReady || !pnpmReady) {
    const wanted = [`pnpm@${pnpmVersion}`];
    if (!useSystemNode) wanted.push(`node@${NODE_MAJOR}`);
    log(`installing ${wanted.join(' and ')} into .tools/ (from the npm registry)`);
    mkdirSync(tools, { recursive: true });
    writeFileSync(join(tools, 'package.json'), '{ "private": true }\n');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    run(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', tools, ...wanted]);
  }
  const nodeBin = useSystemNode ? process.execPath : localNode;
  const binDir = dirname(nodeBin);
  const pathSep = process.platform === 'win32' ? ';' : ':';
  // Node 24 first on PATH, so pnpm and every script it runs use it.
  const shimDir = join(tools, 'bin');
  mkdirSync(shimDir, { recursive: true });
  const pnpmShim = join(shimDir, 'pnpm');
  writeFileSync(pnpmShim, `#!/bin/sh\nexec "${nodeBin}" "${localPnpm}" "$@"\n`, { mode: 0o755 });
  const env = { ...process.env, PATH: [binDir, shimDir, process.env.PATH].join(pathSep) };
  return { nodeBin, pnpm: pnpmShim, env };
}

/** `pnpm install --frozen-lockfile` when the lockfile changed since the last install. */
function ensureDependencies({ pnpm, env }) {
  const lock = readFileSync(join(root, 'pnpm-lock.yaml'));
  const digest = createHash('sha256').update(lock).update(pnpmVersion).digest('hex');
  const marker = join(root, 'node_modules', '.shiplog-install');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === digest) return;
  log('installing dependencies (pnpm install --frozen-lockfile)');
  run(pnpm, ['install', '--frozen-lockfile'], { cwd: root, env });
  writeFileSync(marker, digest);
}

function answers(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function waitFor(host, port, seconds) {
  for (let i = 0; i < seconds * 10; i++) {
    if (await answers(host, port)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

function which(binary) {
  const result = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** Where a store's binary is: on PATH, or where Debian's and Homebrew's packages put it off PATH. */
function storeBin(name) {
  const onPath = which(name);
  if (onPath) return onPath;
  const places = ['/usr/sbin', '/usr/bin', '/opt/homebrew/bin', '/usr/local/bin'];
  // PostgreSQL: Debian keeps it per version, Homebrew's postgresql@N is keg-only.
  for (const base of ['/usr/lib/postgresql', '/opt/homebrew/opt', '/usr/local/opt']) {
    if (!existsSync(base)) continue;
    const versions = readdirSync(base)
      .filter((entry) => /^(postgresql@)?\d+$/.test(entry))
      .sort((a, b) => Number(b.replace(/\D/g, '')) - Number(a.replace(/\D/g, '')));
    places.push(...versions.map((version) => join(base, version, 'bin')));
  }
  return places.map((dir) => join(dir, name)).find((path) => existsSync(path)) ?? null;
}

/** Each store: the binaries it starts from, and the package that brings them on Debian and on Homebrew. */
const storePackages = {
  PostgreSQL: { binaries: ['initdb', 'pg_ctl'], apt: 'postgresql', brew: 'postgresql@17' },
  NATS: { binaries: ['nats-server'], apt: 'nats-server', brew: 'nats-server' },
  Redis: { binaries: ['redis-server'], apt: 'redis-server', brew: 'redis' },
};

/**
 * Installs the packages of the stores whose binaries are missing, as the project installs Chromium:
 * apt-get as root or through a sudo that asks nothing, or Homebrew on macOS. Elsewhere nothing.
 */
function installStores(names) {
  const wanted = names.filter((name) => storePackages[name].binaries.some((binary) => !storeBin(binary)));
  if (wanted.length === 0) return;
  const succeeds = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status === 0;
  if (process.platform === 'darwin' && which('brew')) {
    const packages = wanted.map((name) => storePackages[name].brew);
    log(`installing ${packages.join(', ')} (brew install)`);
    succeeds('brew', ['install', ...packages]);
    return;
  }
  const asRoot = process.getuid?.() === 0;
  if (!which('apt-get') || (!asRoot && spawnSync('sudo', ['-n', 'true']).status !== 0)) return;
  const packages = wanted.map((name) => storePackages[name].apt);
  const apt = (args) => (asRoot ? succeeds('apt-get', args) : succeeds('sudo', ['-n', 'apt-get', ...args]));
  log(`installing ${packages.join(', ')} (apt-get)`);
  // The data then lives under .data/, whatever cluster the package sets up of its own.
  if (apt(['update', '-qq'])) apt(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
}

const installHint =
  'Install them with `sudo apt-get install postgresql nats-server redis-server` (or `brew install ' +
  'postgresql@17 nats-server redis`), or run `docker compose up -d postgres nats redis` and set ' +
  'DATABASE_URL, NATS_URL and REDIS_URL with the passwords from your .env (docs/security.md), then try again.';

async function startPostgres(host, port) {
  const initdb = storeBin('initdb');
  const pgCtl = storeBin('pg_ctl');
  if (!initdb || !pgCtl) return false;
  const dir = join(dataDir, 'postgres');
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: run it as the `postgres` system user when we are root.
  const runAs = (bin, args) =>
    asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'inherit' })
      : spawnSync(bin, args, { stdio: 'inherit' });
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (ids.status !== 0) return false;
    chownSync(dataDir, Number(ids.stdout), Number(gid.stdout));
    chownSync(dir, Number(ids.stdout), Number(gid.stdout));
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL data in ${dir}`);
    const init = runAs(initdb, ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    if (init.status !== 0) return false;
  }
  log(`starting PostgreSQL on ${host}:${port} (data in ${dir})`);
  runAs(pgCtl, ['-D', dir, '-l', join(dir, 'server.log'), '-o', `-p ${port} -h ${host} -k /tmp`, 'start']);
  return waitFor(host, port, 20);
}

async function startDetached(binary, args, host, port) {
  const path = storeBin(binary);
  if (!path) return false;
  const child = spawn(path, args, { detached: true, stdio: 'ignore' });
  child.unref();
  return waitFor(host, port, 10);
}

async function ensureInfrastructure() {
  const db = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/shiplog');
  const nats = new URL(process.env.NATS_URL ?? 'nats://127.0.0.1:4222');
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const services = [
    {
      name: 'PostgreSQL',
      host: db.hostname,
      port: Number(db.port || 5432),
      start: (h, p) => startPostgres(h, p),
    },
    {
      name: 'NATS',
      host: nats.hostname,
      port: Number(nats.port || 4222),
      start: (h, p) => {
        const dir = join(dataDir, 'nats');
        mkdirSync(dir, { recursive: true });
        log(`starting NATS with JetStream on ${h}:${p} (data in ${dir})`);
        return startDetached(
          'nats-server',
          ['-a', h, '-p', String(p), '-js', '-sd', dir, '-P', join(dir, 'nats.pid')],
          h,
          p,
        );
      },
    },
    {
      name: 'Redis',
      host: redis.hostname,
      port: Number(redis.port || 6379),
      start: (h, p) => {
        const dir = join(dataDir, 'redis');
        mkdirSync(dir, { recursive: true });
        log(`starting Redis on ${h}:${p} (data in ${dir})`);
        return startDetached(
          'redis-server',
          [
            '--bind',
            h,
            '--port',
            String(p),
            '--dir',
            dir,
            '--save',
            '',
            '--appendonly',
            'no',
            '--pidfile',
            join(dir, 'redis.pid'),
          ],
          h,
          p,
        );
      },
    },
  ];
  const silent = [];
  for (const service of services) if (!(await answers(service.host, service.port))) silent.push(service);
  // Only stores on this machine are started here, and only theirs are installed when missing.
  const local = silent.filter((service) => ['127.0.0.1', 'localhost', '::1'].includes(service.host));
  if (local.length > 0) installStores(local.map((service) => service.name));
  const missing = [];
  for (const service of silent) {
    if (local.includes(service) && (await service.start(service.host, service.port))) continue;
    missing.push(`${service.name} (${service.host}:${service.port})`);
  }
  if (missing.length > 0) fail(`Not answering and could not be started: ${missing.join(', ')}.\n${installHint}`);
}

/**
 * Debian's Chromium and its headless shell (the browser tests and the web benchmarks drive them),
 * installed with apt-get when missing: as root, or through sudo when it asks no password. Elsewhere
 * (another system, or CHROMIUM_PATH naming a browser of your own) nothing is installed.
 */
function ensureBrowser() {
  if (process.env.CHROMIUM_PATH) return;
  const packages = ['chromium', 'chromium-headless-shell'].filter((name) => !existsSync(`/usr/bin/${name}`));
  if (packages.length === 0) return;
  if (!which('apt-get'))
    fail(`${packages.join(' and ')} not found: install Chromium, or set CHROMIUM_PATH to a Chromium or Chrome binary.`);
  const asRoot = process.getuid?.() === 0;
  if (!asRoot && spawnSync('sudo', ['-n', 'true']).status !== 0)
    fail(`${packages.join(' and ')} not found: run \`sudo apt-get install ${packages.join(' ')}\`, then again.`);
  const apt = (args) => (asRoot ? run('apt-get', args) : run('sudo', ['-n', 'apt-get', ...args]));
  log(`installing ${packages.join(' and ')} (apt-get)`);
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', ...packages]);
}

const task = process.argv[2];
if (!(task in tasks)) fail(`usage: node scripts/bootstrap.mjs <${Object.keys(tasks).join('|')}> [args]`);
if (task === 'stores') {
  await ensureInfrastructure();
  log('PostgreSQL, NATS and Redis answer');
  process.exit(0);
}
const toolchain = ensureToolchain();
ensureDependencies(toolchain);
if (task === 'test' || task === 'bench') ensureBrowser();
await ensureInfrastructure();
const child = spawn(toolchain.pnpm, [...tasks[task], ...process.argv.slice(3)], {
  cwd: root,
  env: toolchain.env,
  stdio: 'inherit',
});
// Ctrl-C reaches the whole foreground process group; wait for the child to finish its own clean stop.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
