/**
 * What the benchmarks share: the app started as `npm start` starts it (every service and the gateway
 * a process of its own, in production mode), a load run with the CPU each process group spent, and a
 * signed-up user.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { cookiesFrom, freeServicePortBase } from '@shiplog/testing';
import autocannon from 'autocannon';
import { appProcesses, root, waitUntilReady } from '../scripts/app-processes.ts';
import { launchApp, launch as launchScript } from '../scripts/launch.ts';
import { cpuByGroup, cpuPerRequest } from './cpu.ts';

/** The secrets the bench app runs with; a bench that reads the stores itself opens them with these. */
export const benchSecrets = {
  SESSION_SECRET: 'bench-session-secret-bench-session-secret',
  INTERNAL_TOKEN_SECRET: 'bench-internal-secret-bench-internal-secret',
  VAULT_KEY_SECRET: 'bench-vault-secret-bench-vault-secret-0123',
  INTEGRATION_KEY_SECRET: 'bench-integration-secret-bench-integration-0123',
};

export async function startBenchApp(
  databaseUrl: string,
  namespace: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const app = await launchApp(await benchAppEnv(databaseUrl, namespace, port, env));
  return app.child;
}

/** The environment `startBenchApp` starts the app with: to start it yourself, or a replica of its gateway. */
export async function benchAppEnv(
  databaseUrl: string,
  namespace: string,
  port: number,
  env: Record<string, string> = {},
): Promise<Record<string, string>> {
  return {
    PORT: String(port),
    SERVICE_PORT_BASE: String(await freeServicePortBase()),
    DATABASE_URL: databaseUrl,
    BUS_NAMESPACE: namespace,
    SKIP_WEB_BUILD: '1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // Thousands of users from one address.
    RATE_LIMITS: 'off',
    // Each service a process of its own, whose CPU and memory the benchmarks read apart (the memory
    // benchmark measures `one` beside it).
    SHIPLOG_PROCESSES: 'each',
    ...benchSecrets,
    ...env,
  };
}

/**
 * Another gateway process over the services, Redis and bus of an app started with `appEnv`
 * (`benchAppEnv`), listening on `port`: a second replica behind a load balancer, as deploy/k8s runs
 * two. It is started as `npm start` starts the gateway (`appProcesses`), with the first one's
 * APP_URL, and resolves once it is ready.
 */
export async function startGatewayReplica(appEnv: Record<string, string>, port: number): Promise<ChildProcess> {
  const env = { ...process.env, ...appEnv, APP_URL: appEnv.APP_URL ?? `http://localhost:${appEnv.PORT}` };
  const gateway = appProcesses({
    databaseUrl: appEnv.DATABASE_URL!,
    portBase: Number(appEnv.SERVICE_PORT_BASE),
    gatewayPort: port,
    env,
  }).at(-1)!;
  const child = spawn(process.execPath, [...gateway.nodeArgs, join(root, gateway.entry)], {
    cwd: root,
    env: { ...env, ...gateway.env },
    // The channel closes when the bench ends however it ends, and the replica stops with it.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
  if (!(await waitUntilReady(gateway, 60, () => child.exitCode !== null))) {
    await stop(child);
    throw new Error(`the gateway replica did not become ready:\n${output}`);
  }
  return child;
}

/** Another Node script of the bench's (the bare server, the do-nothing proxy), once it says `ready`. */
export async function launch(args: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  return (await launchScript(args, env, ready)).child;
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function load(options: autocannon.Options) {
  const before = cpuByGroup();
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  const after = cpuByGroup();
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${options.url}: ${result.non2xx} non-2xx answers (by status ${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest: cpuPerRequest(before, after, result.requests.total),
  };
}

export async function signUp(url: string, username: string): Promise<{ cookie: string; id: string }> {
  const response = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'bench-password' }),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}`);
  return {
    cookie: cookiesFrom(response),
    id: ((await response.json()) as { id: string }).id,
  };
}
