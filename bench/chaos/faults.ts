/**
 * The faults, one at a time: `kill -9` of a process the run started (each service, the gateway, NATS,
 * Redis), restarted after a few seconds; and a PostgreSQL pause (no new connections to the run's
 * database, and the services' open ones ended, for a few seconds). A probe user asks something that
 * needs the faulted part every 100 ms, from the fault until it answers again: that is the heal time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@shiplog/system';
import pg from 'pg';
import type { Fleet } from './processes.ts';

export interface FaultTiming {
  fault: string;
  action: 'kill -9' | 'pause';
  /** When it was done, and when the process was started again (or connections allowed again). */
  at: number;
  restartedAt: number;
  /** The probe's first failure after the fault, or null if it never failed. */
  firstFailureAt: number | null;
  /** The probe's first success after the restart. */
  healedAt: number;
}

type Probe = (client: Client) => Promise<boolean>;

let lastFailure = '';
const ok = (status: number, text = '') => {
  if (status >= 200 && status < 300) return true;
  lastFailure = `${status} ${text.slice(0, 300)}`;
  return false;
};
const get =
  (path: string): Probe =>
  async (client) => {
    const answer = await client.get(path);
    return ok(answer.status, answer.text);
  };

/** What to ask to know that the faulted part serves again. */
function probeFor(fault: string, credentials: { username: string; password: string }): Probe {
  switch (fault) {
    case 'identity':
      return async (client) => ok((await client.post('/api/login', credentials)).status);
    case 'projects':
    case 'gateway':
    case 'app':
      return get('/api/projects');
    case 'reminders':
      return get('/api/reminders');
    case 'billing':
      return get('/api/subscription/status');
    case 'chat':
      return get('/api/chat/usage');
    case 'integrations':
      return get('/api/integrations');
    case 'monitors':
      return get('/api/monitors');
    case 'activity':
      return get('/api/activities?limit=5');
    case 'nats':
      // A write that must travel the bus: the new project's timeline row comes from the activity service.
      return async (client) => {
        const created = await client.post('/api/projects', { name: `Probe ${Date.now()}` });
        if (!ok(created.status)) return false;
        const timeline = await client.get(`/api/projects/${created.body.id}/activities`);
        return ok(timeline.status) && Array.isArray(timeline.body) && timeline.body.length > 0;
      };
    case 'redis':
      // The session store: a session that is gone is signed in again, and then must hold.
      return async (client) => {
        const me = await client.get('/api/user');
        if (me.status === 401) await client.post('/api/login', credentials);
        return ok(me.status);
      };
    case 'postgres':
      return async (client) => {
        const created = await client.post('/api/projects', { name: `Probe ${Date.now()}` });
        if (!ok(created.status, created.text)) return false;
        const list = await client.get('/api/projects');
        return ok(list.status, list.text);
      };
    default:
      throw new Error(`no probe for ${fault}`);
  }
}

export async function runFaults(options: {
  fleet: Fleet;
  faults: string[];
  databaseUrl: string;
  downSeconds: number;
  /** Calm between one fault's healing and the next. */
  gapSeconds: number;
  log: (line: string) => void;
  /** Checked before each fault: the run is over (the load failed), so no more faults. */
  cancelled: () => boolean;
}): Promise<FaultTiming[]> {
  const { fleet } = options;
  const credentials = { username: `chaosprobe${Date.now().toString(36)}`, password: 'chaos-pass-123' };
  const client = new Client(fleet.gatewayUrl, { timeoutMs: 5000 });
  const registered = await client.post('/api/register', credentials);
  if (registered.status !== 201) throw new Error(`the probe user could not register (${registered.status})`);
  const timings: FaultTiming[] = [];
  for (const fault of options.faults) {
    await sleep(options.gapSeconds * 1000);
    if (options.cancelled()) break;
    const probe = probeFor(fault, credentials);
    const attempt = async () => {
      try {
        return await probe(client);
      } catch (error) {
        lastFailure = String(error);
        return false;
      }
    };
    let firstFailureAt: number | null = null;
    let restartedAt = Number.POSITIVE_INFINITY;
    let healedAt: number | null = null;
    let probing = true;
    // Probes run through the fault and stop at the first success after the restart.
    const prober = (async () => {
      while (probing) {
        const sentAt = Date.now();
        const answered = await attempt();
        if (!answered && firstFailureAt === null) firstFailureAt = sentAt;
        if (answered && sentAt >= restartedAt) {
          healedAt = Date.now();
          return;
        }
        await sleep(100);
      }
    })();
    const at = Date.now();
    let action: FaultTiming['action'] = 'kill -9';
    if (fault === 'postgres') {
      action = 'pause';
      await pausePostgres(options.databaseUrl, options.downSeconds);
      restartedAt = Date.now();
    } else {
      const target = fleet.byName(fault);
      options.log(`kill -9 ${fault} (pid ${target.pid()})`);
      await target.kill();
      await sleep(options.downSeconds * 1000);
      restartedAt = Date.now();
      await target.restart();
    }
    const deadline = Date.now() + 120_000;
    while (healedAt === null && Date.now() < deadline) await sleep(50);
    probing = false;
    await prober;
    if (healedAt === null) {
      const outputs = fleet.all.map((p) => `--- ${p.name}\n${p.output().slice(-1500)}`).join('\n');
      throw new Error(
        `${fault} did not heal within two minutes of its restart; the probe last met: ${lastFailure}\n${outputs}`,
      );
    }
    timings.push({ fault, action, at, restartedAt, firstFailureAt, healedAt });
    options.log(
      `${fault}: ${action}, ${((restartedAt - at) / 1000).toFixed(1)} s down, answering ${((healedAt - restartedAt) / 1000).toFixed(1)} s after the restart`,
    );
  }
  return timings;
}

/**
 * No new connections to the run's database for `seconds`, and the services' open ones ended at the
 * start (only backends of this database whose application_name is a Shiplog service's).
 */
async function pausePostgres(databaseUrl: string, seconds: number) {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), application_name: 'chaos' });
  await client.connect();
  try {
    await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    const until = Date.now() + seconds * 1000;
    // Again and again through the pause: a connection that was being opened as it began ends too.
    while (Date.now() < until) {
      await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = $1 AND application_name LIKE 'shiplog-%' AND pid <> pg_backend_pid()`,
        [name],
      );
      await sleep(250);
    }
  } finally {
    await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await client.end();
  }
}
