/**
 * Projects benchmark: GET /api/projects (a user with 20 projects) through the gateway against a bare
 * Node + pg server answering the same query, a do-nothing proxy in front of it (the floor), and the
 * conventional BFF in front of the same projects service (conventional-bff.ts: the peer), at 32
 * connections; POST /api/projects through the gateway and the peer; and the projector's lag (append →
 * timeline row) at the 99th percentile. The app runs as a cluster runs it, every service and the
 * gateway a process of its own; beside it, a second app with its own database runs as `npm start`
 * does, all in one process (`SHIPLOG_PROCESSES=one`), read and written the same way.
 */
import type { ChildProcess } from 'node:child_process';
import { serviceDirectory } from '@shiplog/service-kit';
import {
  cookiesFrom,
  createTestBusNamespace,
  createTestDatabase,
  freePort,
  freeServicePortBase,
  redisUrl,
} from '@shiplog/testing';
import pg from 'pg';
import { benchSecrets, launch, load, signUp, startBenchApp, stop } from './app.ts';

interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU each request cost each process group (µs), so a ratio can be read as where the time went. */
  cpuMicrosPerRequest: Record<string, number>;
}

/** One round: the bare server, the gateway, the floor proxy and the peer, 10 s each, one after the other. */
export interface GetRound {
  bare: LoadResult;
  gateway: LoadResult;
  /** A do-nothing Node proxy in front of the bare server: what one extra hop costs by itself. */
  floor: LoadResult;
  /** The conventional BFF (Express, express-session, connect-redis, http-proxy-middleware). */
  bff: LoadResult;
  /** The same GET from the app running in one process. */
  one: LoadResult;
  /** The one process's throughput over the bare server's. */
  oneToBare: number;
  throughputRatio: number;
  p99Ratio: number;
  floorThroughputRatio: number;
  floorP99Ratio: number;
  /** The gateway's throughput over the floor's, and its p99 over the floor's. */
  gatewayToFloor: number;
  gatewayToFloorP99: number;
  /** The gateway's throughput over the peer's, and its p99 over the peer's. */
  gatewayToBff: number;
  gatewayToBffP99: number;
}

export interface ProjectsResult {
  /** Every round, in the order run. The headline figures below are the medians over them. */
  rounds: GetRound[];
  /** The round whose throughput ratio is the median. */
  gateway: LoadResult;
  bare: LoadResult;
  floor: LoadResult;
  bff: LoadResult;
  throughputRatio: number;
  p99Ratio: number;
  floorThroughputRatio: number;
  floorP99Ratio: number;
  gatewayToFloor: number;
  gatewayToFloorP99: number;
  gatewayToBff: number;
  gatewayToBffP99: number;
  createsPerSecond: number;
  createP99Ms: number;
  /** The same creates in the one-process app, and their rate over the processes' own. */
  oneCreates: LoadResult;
  oneCreatesToEach: number;
  /** The median round's `oneToBare`. */
  oneToBare: number;
  /** The bare server's POST (one INSERT of the same document), run right after the creates. */
  bareCreates: LoadResult;
  /** createsPerSecond / the bare server's: comparable across days on a shared machine. */
  createRatio: number;
  /** CPU each create cost each process group (µs): where the write path's time goes. */
  createCpuMicros: Record<string, number>;
  /** CPU each GET cost each process group (µs) with the GETs at the rate the creates ran. */
  readCpuMicrosAtCreateRate: Record<string, number>;
  /** The same creates through the conventional BFF, and the gateway's over them. */
  bffCreates: LoadResult;
  createToBff: number;
  /** How long the projector took, after the saturated run ended, to catch up. */
  drainSeconds: number;
  /** Lag while creates run flat out (the machine saturated). */
  saturatedLagP50Ms: number;
  saturatedLagP99Ms: number;
  /** Lag at a steady 250 creates/s, half the throughput target. */
  projectorLagP50Ms: number;
  projectorLagP99Ms: number;
  projectorSamples: number;
}

/** Event appended → handled by the activity projector, from the database's own clocks, for one user's events. */
async function projectorLag(pool: pg.Pool, userId: string) {
  const { rows } = await pool.query<{ p50: number; p99: number; n: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) AS p99, count(*)::int AS n
     FROM (SELECT extract(epoch FROM h.handled_at - e.occurred_at) * 1000 AS lag
           FROM activity.handled_events h JOIN projects.events e ON e.event_id = h.event_id
           WHERE h.consumer = 'activity-timeline' AND e.metadata->>'userId' = $1) lags`,
    [userId],
  );
  return { p50: Math.round(rows[0]!.p50 * 10) / 10, p99: Math.round(rows[0]!.p99 * 10) / 10, n: rows[0]!.n };
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export async function runProjects(): Promise<ProjectsResult> {
  const db = await createTestDatabase('bench_app');
  const ns = createTestBusNamespace('bench_app');
  const port = await freePort();
  const serviceBase = await freeServicePortBase();
  const app = await startBenchApp(db.url, ns.namespace, port, { SERVICE_PORT_BASE: String(serviceBase) });
  const url = `http://127.0.0.1:${port}`;
  const oneDb = await createTestDatabase('bench_one');
  const oneNs = createTestBusNamespace('bench_one');
  const onePort = await freePort();
  const oneApp = await startBenchApp(oneDb.url, oneNs.namespace, onePort, { SHIPLOG_PROCESSES: 'one' });
  const oneUrl = `http://127.0.0.1:${onePort}`;
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {});
  let bare: ChildProcess | undefined;
  let floor: ChildProcess | undefined;
  let bff: ChildProcess | undefined;
  try {
    const reader = await readerWithProjects(url);
    const oneReader = await readerWithProjects(oneUrl);

    const barePort = await freePort();
    bare = await launch(
      ['bench/bare-server.ts'],
      { DATABASE_URL: db.url, BENCH_USER_ID: reader.id, PORT: String(barePort) },
      'bare server ready',
    );
    const bareUrl = `http://127.0.0.1:${barePort}/api/projects`;
    const gatewayUrl = `${url}/api/projects`;
    const floorPort = await freePort();
    floor = await launch(
      ['bench/floor-proxy.ts'],
      { UPSTREAM_URL: `http://127.0.0.1:${barePort}`, PORT: String(floorPort) },
      'floor proxy ready',
    );
    const floorUrl = `http://127.0.0.1:${floorPort}/api/projects`;
    const bffPort = await freePort();
    bff = await launch(
      ['bench/conventional-bff.ts'],
      {
        REDIS_URL: redisUrl,
        BUS_NAMESPACE: ns.namespace,
        SESSION_SECRET: benchSecrets.SESSION_SECRET,
        INTERNAL_TOKEN_SECRET: benchSecrets.INTERNAL_TOKEN_SECRET,
        PROJECTS_URL: `http://127.0.0.1:${serviceBase + serviceDirectory.projects - 4100}`,
        PORT: String(bffPort),
      },
      'conventional bff ready',
    );
    const bffUrl = `http://127.0.0.1:${bffPort}/api/projects`;
    const peerList = (await (await fetch(bffUrl, { headers: { cookie: reader.cookie } })).json()) as unknown[];
    if (peerList.length !== 20) throw new Error(`the conventional BFF answered ${peerList.length} projects, not 20`);
    const targets = {
      bare: { url: bareUrl },
      gateway: { url: gatewayUrl, headers: { cookie: reader.cookie } },
      floor: { url: floorUrl },
      bff: { url: bffUrl, headers: { cookie: reader.cookie } },
      one: { url: `${oneUrl}/api/projects`, headers: { cookie: oneReader.cookie } },
    };
    // Warm each for 10 s (JIT tiers, pools, caches: a gateway warmed for 3 s ran its first 10 s about
    // a fifth slower than the next ones). Then interleaved rounds, so a slow spell of this shared
    // machine lands on all three alike; the headline is the median round.
    for (const target of Object.values(targets)) await load({ ...target, duration: 10 });
    const rounds: GetRound[] = [];
    for (let round = 0; round < 3; round++) {
      const bareRun = await load(targets.bare);
      const gatewayRun = await load(targets.gateway);
      const floorRun = await load(targets.floor);
      const bffRun = await load(targets.bff);
      const oneRun = await load(targets.one);
      rounds.push({
        bare: bareRun,
        gateway: gatewayRun,
        floor: floorRun,
        bff: bffRun,
        one: oneRun,
        oneToBare: ratio(oneRun.requestsPerSecond, bareRun.requestsPerSecond),
        throughputRatio: ratio(gatewayRun.requestsPerSecond, bareRun.requestsPerSecond),
        p99Ratio: ratio(gatewayRun.p99Ms, bareRun.p99Ms),
        floorThroughputRatio: ratio(floorRun.requestsPerSecond, bareRun.requestsPerSecond),
        floorP99Ratio: ratio(floorRun.p99Ms, bareRun.p99Ms),
        gatewayToFloor: ratio(gatewayRun.requestsPerSecond, floorRun.requestsPerSecond),
        gatewayToFloorP99: ratio(gatewayRun.p99Ms, floorRun.p99Ms),
        gatewayToBff: ratio(gatewayRun.requestsPerSecond, bffRun.requestsPerSecond),
        gatewayToBffP99: ratio(gatewayRun.p99Ms, bffRun.p99Ms),
      });
    }
    await stop(floor);
    await load({
      url: bareUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"w"}',
      duration: 3,
    });
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const throughputRatio = median(rounds.map((r) => r.throughputRatio));
    const medianRound = rounds.find((r) => r.throughputRatio === throughputRatio)!;

    /** Seconds until the timeline projector has handled every project event. */
    const projectorCaughtUp = async () => {
      const start = Date.now();
      for (;;) {
        const { rows } = await pool.query<{ drained: boolean }>(
          `SELECT NOT EXISTS (SELECT 1 FROM projects.events e WHERE NOT EXISTS (
             SELECT 1 FROM activity.handled_events h WHERE h.consumer = 'activity-timeline' AND h.event_id = e.event_id)) AS drained`,
        );
        if (rows[0]!.drained) return (Date.now() - start) / 1000;
        if (Date.now() - start > 120_000) throw new Error('the projector did not catch up within 2 minutes');
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const createBody = JSON.stringify({
      name: 'Benchmark project',
      description: 'Created under load',
      status: 'development',
    });
    // Warm the write path (JIT, pools) as the reads were, with a user of its own, and let it settle.
    const warmer = await signUp(url, `warmer${Date.now().toString(36)}`);
    const postAs = (cookie: string) => ({ cookie, 'content-type': 'application/json' });
    await load({ url: gatewayUrl, method: 'POST', headers: postAs(warmer.cookie), body: createBody, duration: 5 });
    await projectorCaughtUp();
    const writer = await signUp(url, `writer${Date.now().toString(36)}`);
    const creates = await load({ url: gatewayUrl, method: 'POST', headers: postAs(writer.cookie), body: createBody });
    // Reads at the rate the creates ran: what any request costs the gateway at that rate (at a few
    // hundred a second each one wakes its processes alone, where a saturated run shares the wake-ups),
    // so that a create's own share of the gateway is the difference.
    const readsAtCreateRate = await load({
      ...targets.gateway,
      overallRate: creates.requestsPerSecond,
      duration: 10,
    });
    // The same creates in the one process, with a writer of its own after a warm-up.
    const oneWarmer = await signUp(oneUrl, `warmer${Date.now().toString(36)}`);
    await load({
      url: targets.one.url,
      method: 'POST',
      headers: postAs(oneWarmer.cookie),
      body: createBody,
      duration: 5,
    });
    const oneWriter = await signUp(oneUrl, `writer${Date.now().toString(36)}`);
    const oneCreates = await load({
      url: targets.one.url,
      method: 'POST',
      headers: postAs(oneWriter.cookie),
      body: createBody,
    });
    await stop(oneApp);
    const bareCreates = await load({
      url: bareUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: createBody,
    });
    // The same creates through the peer, after the projector has caught up with the gateway's.
    await projectorCaughtUp();
    const peerWriter = await signUp(url, `peer${Date.now().toString(36)}`);
    const bffCreates = await load({
      url: bffUrl,
      method: 'POST',
      headers: postAs(peerWriter.cookie),
      body: createBody,
    });
    await stop(bff);
    // Let the projector drain the saturated run's backlog, so the steady run measures lag, not queue.
    const drainSeconds = await projectorCaughtUp();
    const steady = await signUp(url, `steady${Date.now().toString(36)}`);
    await load({
      url: gatewayUrl,
      method: 'POST',
      headers: { cookie: steady.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Steady project', status: 'planning' }),
      connections: 8,
      overallRate: 250,
      duration: 10,
    });
    await new Promise((r) => setTimeout(r, 3000));
    const saturated = await projectorLag(pool, writer.id);
    const steadyLag = await projectorLag(pool, steady.id);
    return {
      rounds,
      gateway: medianRound.gateway,
      bare: medianRound.bare,
      floor: medianRound.floor,
      bff: medianRound.bff,
      throughputRatio,
      p99Ratio: median(rounds.map((r) => r.p99Ratio)),
      floorThroughputRatio: median(rounds.map((r) => r.floorThroughputRatio)),
      floorP99Ratio: median(rounds.map((r) => r.floorP99Ratio)),
      gatewayToFloor: median(rounds.map((r) => r.gatewayToFloor)),
      gatewayToFloorP99: median(rounds.map((r) => r.gatewayToFloorP99)),
      gatewayToBff: median(rounds.map((r) => r.gatewayToBff)),
      gatewayToBffP99: median(rounds.map((r) => r.gatewayToBffP99)),
      createsPerSecond: creates.requestsPerSecond,
      createP99Ms: creates.p99Ms,
      oneCreates,
      oneCreatesToEach: ratio(oneCreates.requestsPerSecond, creates.requestsPerSecond),
      oneToBare: median(rounds.map((r) => r.oneToBare)),
      bareCreates,
      createRatio: ratio(creates.requestsPerSecond, bareCreates.requestsPerSecond),
      createCpuMicros: creates.cpuMicrosPerRequest,
      readCpuMicrosAtCreateRate: readsAtCreateRate.cpuMicrosPerRequest,
      bffCreates,
      createToBff: ratio(creates.requestsPerSecond, bffCreates.requestsPerSecond),
      drainSeconds,
      saturatedLagP50Ms: saturated.p50,
      saturatedLagP99Ms: saturated.p99,
      projectorLagP50Ms: steadyLag.p50,
      projectorLagP99Ms: steadyLag.p99,
      projectorSamples: steadyLag.n,
    };
  } finally {
    if (floor) await stop(floor);
    if (bff) await stop(bff);
    if (bare) await stop(bare);
    await stop(app);
    await stop(oneApp);
    await pool.end();
    await ns.drop();
    await db.drop();
    await oneNs.drop();
    await oneDb.drop();
  }
}

/** A user of the app at `url` with 20 projects, whose cookie holds the creates' read-your-writes position. */
async function readerWithProjects(url: string) {
  const reader = await signUp(url, `reader${Date.now().toString(36)}`);
  for (let i = 0; i < 20; i++) {
    const response = await fetch(`${url}/api/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: reader.cookie },
      body: JSON.stringify({
        name: `Project ${i}`,
        description: 'A project with a description of ordinary length.',
        costEstimate: 1000 * i,
      }),
    });
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    // As a browser does: the create's read-your-writes position comes back as a cookie.
    reader.cookie = cookiesFrom(response, reader.cookie);
  }
  const list = (await (await fetch(`${url}/api/projects`, { headers: { cookie: reader.cookie } })).json()) as unknown[];
  if (list.length !== 20) throw new Error(`expected 20 projects, got ${list.length}`);
  return reader;
}
