/**
 * The image, built here without a Docker engine: the build context `docker build .` sends is copied
 * into a fresh directory, the Dockerfile's production stage runs there as written (its install, from
 * the pnpm store, and what it removes), the web app built by the build stage is added, and what the
 * runtime stage copies is measured. Then that directory alone serves the app: `node
 * scripts/one-process.ts`, the image's command, with the stores of the tests. The base image
 * (node:24-bookworm-slim) is not counted: it is shared with every other Node image on the host.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createTestBusNamespace,
  createTestDatabase,
  freePort,
  freeServicePortBase,
  natsUrl,
  redisUrl,
} from '@shiplog/testing';
import { buildContext, dockerfileStages, root } from '../deploy/image.ts';
import { launch } from '../scripts/launch.ts';
import { benchSecrets } from './app.ts';

export interface ImageResult {
  /** What the runtime stage copies: the app with its production dependencies, and the built web app. */
  appMB: number;
  nodeModulesMB: number;
  webMB: number;
  /** Seconds the production stage's install took from a warm store. */
  installSeconds: number;
  /** `GET /readyz` and `GET /` of the app served from that directory alone. */
  served: boolean;
}

const megabytes = (path: string) =>
  Math.round(Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split('\t')[0]) / 1024);

export async function runImage(): Promise<ImageResult> {
  const dir = mkdtempSync(join(tmpdir(), 'shiplog-image-'));
  try {
    for (const path of buildContext()) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      cpSync(join(root, path), join(dir, path));
    }
    const production = dockerfileStages().find((stage) => stage.name === 'production')!;
    const store = execFileSync('pnpm', ['store', 'path'], { cwd: root, encoding: 'utf8' }).trim();
    const started = performance.now();
    for (const { args } of production.instructions.filter((i) => i.keyword === 'RUN'))
      execFileSync('sh', ['-c', args], { cwd: dir, env: { ...process.env, PNPM_STORE: store }, stdio: 'ignore' });
    const installSeconds = Math.round((performance.now() - started) / 100) / 10;
    if (!existsSync(join(root, 'web', 'dist', 'index.html')))
      execFileSync('pnpm', ['build'], { cwd: root, stdio: 'ignore' });
    cpSync(join(root, 'web', 'dist'), join(dir, 'web', 'dist'), { recursive: true });
    const result = {
      appMB: megabytes(dir),
      nodeModulesMB: megabytes(join(dir, 'node_modules')),
      webMB: megabytes(join(dir, 'web', 'dist')),
      installSeconds,
    };
    return { ...result, served: await serves(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the app in `dir` starts as the image's command starts it, and answers. */
async function serves(dir: string): Promise<boolean> {
  const db = await createTestDatabase('bench_image');
  const bus = createTestBusNamespace('bench_image');
  const port = await freePort();
  const app = await launch(
    [join(dir, 'scripts', 'one-process.ts')],
    {
      ...benchSecrets,
      DATABASE_URL: db.url,
      NATS_URL: natsUrl,
      REDIS_URL: redisUrl,
      BUS_NAMESPACE: bus.namespace,
      PORT: String(port),
      SERVICE_PORT_BASE: String(await freeServicePortBase()),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    },
    'shiplog: ready',
  );
  try {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    return ready.ok && page.ok && (await page.text()).includes('<div id="root">');
  } finally {
    await app.stop();
    await bus.drop();
    await db.drop();
  }
}
