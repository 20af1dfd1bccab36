/**
 * `pnpm bench`: runs every benchmark, prints a table, and writes the figures as JSON under
 * bench/results/ (one file per benchmark, overwritten, with the date and machine inside).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { runAdminUsers } from './admin-users.ts';
import { runAudit } from './audit.ts';
import { runBackbone } from './backbone.ts';
import { runChat } from './chat.ts';
import { machineSpeedMs } from './cpu.ts';
import { runDetection } from './detection.ts';
import { runGitHub } from './github.ts';
import { runImage } from './image.ts';
import { runIntegrations } from './integrations.ts';
import { runLive } from './live.ts';
import { runMemory } from './memory.ts';
import { runMonitors } from './monitors.ts';
import { runProjects } from './projects.ts';
import { runRebuild } from './rebuild.ts';
import { runScheduler } from './scheduler.ts';
import { runStatus } from './status.ts';
import { runTokens } from './tokens.ts';
import { runWeb } from './web.ts';
import { runWorkspaces } from './workspaces.ts';

const resultsDir = join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};

type Row = [string, string, string, string];
const met = (ok: boolean) => (ok ? 'met' : 'MISSED');

function table(rows: Row[]) {
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...[['measure', 'value', 'target', ''], ...rows].map((r) => r[i]!.length)),
  );
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  process.stdout.write(
    `\n${line(['measure', 'value', 'target', ''])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`,
  );
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

/** Writes a benchmark's results with the date, the machine, and how fast it ran just now (cpu.ts). */
function save(name: string, results: unknown) {
  const file = join(resultsDir, `${name}.json`);
  const speedMs = machineSpeedMs();
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: { ...machine, speedMs }, results }, null, 2)}\n`,
  );
  process.stdout.write(`machine speed: ${speedMs} ms for the fixed CPU work (lower is faster)\nwritten to ${file}\n`);
}

/** `total 560 (gateway 160, projects 130, …)`: the biggest parts of one request's CPU. */
function cpuLine(cpu: Record<string, number>): string {
  const parts = Object.entries(cpu)
    .filter(([group, micros]) => group !== 'total' && micros >= 10)
    .sort((a, b) => b[1] - a[1])
    .map(([group, micros]) => `${group} ${micros}`);
  return `total ${cpu.total} (${parts.join(', ')})`;
}

const only = process.argv[2];

if (!only || only === 'backbone') {
  process.stdout.write("\nbackbone: event store appends beside emmett's PostgreSQL store, and relay + consumer lag…\n");
  const b = await runBackbone();
  table([
    ['event store appends/s, 1 writer (emmett)', `${b.appendsPerSecond1} (${b.emmettAppendsPerSecond1})`, '', ''],
    ['event store appends/s, 16 writers (emmett)', `${b.appendsPerSecond16} (${b.emmettAppendsPerSecond16})`, '', ''],
    ['appends/s, 16 writers: Shiplog / emmett', String(b.appendsToEmmett), '>= 1.0', met(b.appendsToEmmett >= 1)],
    ['append p99 with 16 writers, ms (emmett)', `${b.appendP99Ms16} (${b.emmettAppendP99Ms16})`, '', ''],
    ['append p99: Shiplog / emmett', `${b.p99ToEmmett}x`, '<= 1.0x', met(b.p99ToEmmett <= 1)],
    ['bare INSERTs of the same row/s, 16 writers', String(b.bareInsertsPerSecond16), '', ''],
    ['appends / bare INSERTs', String(b.appendRatio), '', ''],
    ['append → handled lag p50 (ms)', String(b.lagP50Ms), '', ''],
    ['append → handled lag p99 (ms)', String(b.lagP99Ms), '<= 50', met(b.lagP99Ms <= 50)],
    ['append → handled lag max (ms)', String(b.lagMaxMs), '', ''],
    ['lag samples', String(b.lagSamples), '', ''],
    ['created and listed/s, 16 writers: Shiplog (p99 ms)', `${b.projectedPerSecond16} (${b.projectedP99Ms16})`, '', ''],
    ['… emmett, inline projection (p99 ms)', `${b.emmettProjectedPerSecond16} (${b.emmettProjectedP99Ms16})`, '', ''],
  ]);
  save('backbone', b);
}

if (!only || only === 'projects') {
  process.stdout.write(
    '\nprojects: GET /api/projects through the gateway vs a bare Node + pg server, the floor proxy and the conventional BFF; creates; projector lag…\n',
  );
  const p = await runProjects();
  const gatewayCpu = (cpu: Record<string, number>) => cpu.gateway ?? 0;
  table([
    ...p.rounds.map(
      (r, i): Row => [
        `GET round ${i + 1}: bare / gateway / floor / BFF req/s (p99 ms)`,
        `${r.bare.requestsPerSecond} (${r.bare.p99Ms}) / ${r.gateway.requestsPerSecond} (${r.gateway.p99Ms}) / ${r.floor.requestsPerSecond} (${r.floor.p99Ms}) / ${r.bff.requestsPerSecond} (${r.bff.p99Ms})`,
        '',
        `to floor ${r.gatewayToFloor}, to BFF ${r.gatewayToBff}`,
      ],
    ),
    ['gateway / bare, throughput and p99 (median)', `${p.throughputRatio} / ${p.p99Ratio}x`, '', ''],
    ...p.rounds.map(
      (r, i): Row => [
        `GET round ${i + 1}, all in one process: req/s (p99 ms)`,
        `${r.one.requestsPerSecond} (${r.one.p99Ms})`,
        '',
        '',
      ],
    ),
    ['one process / bare throughput (median)', String(p.oneToBare), '>= 0.75', met(p.oneToBare >= 0.75)],
    [
      'CPU µs per GET, one process (median round)',
      cpuLine(p.rounds.find((r) => r.oneToBare === p.oneToBare)!.one.cpuMicrosPerRequest),
      '',
      '',
    ],
    ['floor (do-nothing proxy) / bare, throughput and p99', `${p.floorThroughputRatio} / ${p.floorP99Ratio}x`, '', ''],
    ['gateway / floor throughput (median)', String(p.gatewayToFloor), '>= 0.9', met(p.gatewayToFloor >= 0.9)],
    ['gateway / floor p99 (median)', `${p.gatewayToFloorP99}x`, '<= 1.2x', met(p.gatewayToFloorP99 <= 1.2)],
    ['gateway / conventional BFF throughput (median)', String(p.gatewayToBff), '>= 1.0', met(p.gatewayToBff >= 1)],
    ['gateway / conventional BFF p99 (median)', `${p.gatewayToBffP99}x`, '', ''],
    ['CPU µs per GET, bare path (median round)', cpuLine(p.bare.cpuMicrosPerRequest), '', ''],
    ['CPU µs per GET, gateway path (median round)', cpuLine(p.gateway.cpuMicrosPerRequest), '', ''],
    ['CPU µs per GET, BFF path (median round)', cpuLine(p.bff.cpuMicrosPerRequest), '', ''],
    ['POST /api/projects creates/s, gateway (p99 ms)', `${p.createsPerSecond} (${p.createP99Ms})`, '', ''],
    [
      'POST through the conventional BFF creates/s (p99 ms)',
      `${p.bffCreates.requestsPerSecond} (${p.bffCreates.p99Ms})`,
      '',
      '',
    ],
    ['creates gateway / BFF', String(p.createToBff), '>= 1.0', met(p.createToBff >= 1)],
    ['POST in one process creates/s (p99 ms)', `${p.oneCreates.requestsPerSecond} (${p.oneCreates.p99Ms})`, '', ''],
    ['creates one process / each a process', String(p.oneCreatesToEach), '>= 1.0', met(p.oneCreatesToEach >= 1)],
    [
      'POST bare server (one INSERT) creates/s (p99 ms)',
      `${p.bareCreates.requestsPerSecond} (${p.bareCreates.p99Ms})`,
      '',
      '',
    ],
    ['creates / bare INSERT server', String(p.createRatio), '', ''],
    ['CPU µs per create', cpuLine(p.createCpuMicros), '', ''],
    [
      "the gateway's CPU µs per create",
      String(gatewayCpu(p.createCpuMicros)),
      '<= 150',
      met(gatewayCpu(p.createCpuMicros) <= 150),
    ],
    ["the gateway's CPU µs per GET at the creates' rate", String(gatewayCpu(p.readCpuMicrosAtCreateRate)), '', ''],
    [
      "a create's own share of the gateway (create - GET at that rate)",
      String(gatewayCpu(p.createCpuMicros) - gatewayCpu(p.readCpuMicrosAtCreateRate)),
      '',
      '',
    ],
    ['CPU µs per create through the BFF', cpuLine(p.bffCreates.cpuMicrosPerRequest), '', ''],
    ['projector lag p99 at 250 creates/s (ms)', String(p.projectorLagP99Ms), '<= 50', met(p.projectorLagP99Ms <= 50)],
    ['projector lag p50 at 250 creates/s (ms)', String(p.projectorLagP50Ms), '', ''],
    ['projector lag p99 while saturated (ms)', String(p.saturatedLagP99Ms), '', ''],
    ['projector catch-up after saturation (s)', String(p.drainSeconds), '', ''],
  ]);
  save('projects', p);
}

if (!only || only === 'rebuild') {
  process.stdout.write('\nrebuild: every projection from 100,000 events, the app stopped…\n');
  const r = await runRebuild();
  table([
    ['events in the stores', `${r.storedEvents} (${r.users} users × ${r.templateEvents})`, '', ''],
    ['rebuild of every projection (s)', String(r.seconds), '<= 20', met(r.seconds <= 20)],
    ['stored events rebuilt per second', String(r.eventsPerSecond), '', ''],
    ['events handled, over all projections', String(r.replayed), '', ''],
    ...r.projections.map((p): Row => [`  ${p.projection}`, `${p.events} events, ${p.seconds} s`, '', '']),
    ['seeding the stores (s)', String(r.seedSeconds), '', ''],
  ]);
  save('rebuild', r);
}

if (!only || only === 'image') {
  process.stdout.write(
    "\nimage: the Dockerfile's production stage run here, what the image holds, and the app served from it…\n",
  );
  const image = await runImage();
  table([
    ['the app with production dependencies, MB', String(image.appMB - image.webMB), '', ''],
    ['  of which node_modules, MB', String(image.nodeModulesMB), '', ''],
    ['the built web app, MB', String(image.webMB), '', ''],
    ['over node:24-bookworm-slim, MB', String(image.appMB), '', ''],
    ['production install from the store, s', String(image.installSeconds), '', ''],
    ['serves /readyz and the web app from it alone', String(image.served), 'true', met(image.served)],
  ]);
  save('image', image);
}

if (!only || only === 'memory') {
  process.stdout.write(
    '\nmemory: the whole app idle, after start-up and one sign-in, each process apart and all in one…\n',
  );
  const each = await runMemory('each');
  const one = await runMemory('one');
  const pss = one.proportionalByGroup;
  const withPostgres = one.appProportionalMiB + (pss.postgresql ?? 0);
  const withStores = withPostgres + (pss.nats ?? 0) + (pss.redis ?? 0);
  table([
    ['each a process: the gateway and every service, RSS summed (MB)', String(each.appMiB), '', ''],
    ...Object.entries(each.byProcess).map(([process, mib]): Row => [`  ${process} (MB)`, String(mib), '', '']),
    ['each a process: PSS summed (MB)', String(each.appProportionalMiB), '<= 700', met(each.appProportionalMiB <= 700)],
    ["each a process: npm start's supervisor (MB)", String(each.supervisorMiB), '', ''],
    [
      'one process: everything npm start runs, PSS (MB)',
      String(one.appProportionalMiB),
      '<= 250',
      met(one.appProportionalMiB <= 250),
    ],
    ['one process: RSS (MB)', String(one.appMiB), '', ''],
    ...Object.entries(one.byProcess).map(([process, mib]): Row => [`  ${process} (MB)`, String(mib), '', '']),
    ['one process: PostgreSQL backends of its database', String(one.backends), '<= 12', met(one.backends <= 12)],
    [
      'each a process: PostgreSQL backends of its database (a session and an idle pooled one per service)',
      String(each.backends),
      '<= 16',
      met(each.backends <= 16),
    ],
    ...Object.entries(each.backendsByName).map(([name, count]): Row => [`  ${name}`, String(count), '', '']),
    ['PostgreSQL, NATS and Redis together, one process (MB)', String(one.infrastructureMiB), '', ''],
    ['one process with PostgreSQL, PSS (MB)', String(withPostgres), '<= 400', met(withPostgres <= 400)],
    ['one process with PostgreSQL, NATS and Redis, PSS (MB)', String(withStores), '<= 450', met(withStores <= 450)],
    ['npm start to ready, each a process (s)', String(each.startSeconds), '', ''],
    ['npm start to ready, one process (s)', String(one.startSeconds), '<= 10', met(one.startSeconds <= 10)],
  ]);
  save('memory', { each, one });
}

if (!only || only === 'scheduler') {
  process.stdout.write('\nscheduler: 10,000 reminders due in the same minute, to a local SMTP sink…\n');
  const s = await runScheduler();
  table([
    ['reminders due in one minute', String(s.reminders), '', ''],
    ['emails received', String(s.sent), String(s.reminders), met(s.sent === s.reminders)],
    ['sent twice', String(s.duplicates), '0', met(s.duplicates === 0)],
    ['last email after the minute began (s)', String(s.seconds), '', ''],
    ['delay past send time p50 (ms)', String(s.delayP50Ms), '', ''],
    ['delay past send time p99 (ms)', String(s.delayP99Ms), '<= 5000', met(s.delayP99Ms <= 5000)],
  ]);
  save('scheduler', s);
}

if (!only || only === 'detection') {
  process.stdout.write('\ndetection: 100 sites checked every 30 s go down at once, then come back…\n');
  const r = await runDetection();
  const budget = 2 * r.intervalSeconds * 1000 + 5000;
  table([
    ['outages', String(r.outages), '', ''],
    [
      'down → incident open p50 / p99 (ms)',
      `${r.down.p50Ms} / ${r.down.p99Ms}`,
      `<= ${budget}`,
      met(r.down.p99Ms <= budget),
    ],
    [
      'incident open → alert at the webhook p50 / p99 (ms)',
      `${r.downAlert.p50Ms} / ${r.downAlert.p99Ms}`,
      '<= 5000',
      met(r.downAlert.p99Ms <= 5000),
    ],
    [
      'back up → incident closed p50 / p99 (ms)',
      `${r.up.p50Ms} / ${r.up.p99Ms}`,
      `<= ${budget}`,
      met(r.up.p99Ms <= budget),
    ],
    [
      'incident closed → alert at the webhook p50 / p99 (ms)',
      `${r.upAlert.p50Ms} / ${r.upAlert.p99Ms}`,
      '<= 5000',
      met(r.upAlert.p99Ms <= 5000),
    ],
  ]);
  save('detection', r);
}

if (!only || only === 'status') {
  process.stdout.write('\nstatus: the public status page of 20 monitors with 90 days of counts, signed out…\n');
  const r = await runStatus();
  table([
    ['monitors / hourly counts / incidents', `${r.monitors} / ${r.rollupRows} / ${r.incidents}`, '', ''],
    ['first read, nothing held (ms)', String(r.firstReadMs), '', ''],
    ['answer (bytes)', String(r.answerBytes), '', ''],
    ['GET status req/s, 32 connections', String(r.held.requestsPerSecond), '', ''],
    ['GET status p99 (ms), 32 connections', String(r.held.p99Ms), '<= 50', met(r.held.p99Ms <= 50)],
    ['CPU µs per GET', cpuLine(r.held.cpuMicrosPerRequest), '', ''],
  ]);
  save('status', r);
}

if (!only || only === 'monitors') {
  process.stdout.write('\nmonitors: 1,000 monitors checked every 60 s against a local target, for 3 minutes…\n');
  const r = await runMonitors();
  table([
    ['monitors, every 60 s', String(r.monitors), '', ''],
    ['checks run', String(r.checks), `>= ${r.monitors * 3}`, met(r.checks >= r.monitors * 3)],
    ['drift from schedule p50 (ms)', String(r.driftP50Ms), '', ''],
    ['drift from schedule p99 (ms)', String(r.driftP99Ms), '<= 2000', met(r.driftP99Ms <= 2000)],
    ['drift from schedule max (ms)', String(r.driftMaxMs), '', ''],
    ['CPU per check, this process (µs)', String(r.cpuPerCheckUs), '', ''],
    ['RSS of the process (MB)', String(r.rssMiB), '', ''],
  ]);
  save('monitors', r);
}

if (!only || only === 'tokens') {
  process.stdout.write(
    '\ntokens: GET /api/projects with an API token, its check cached and not, beside the session…\n',
  );
  const t = await runTokens();
  table([
    ['session GET req/s, p99 (ms)', `${t.session.requestsPerSecond}, ${t.session.p99Ms}`, '', ''],
    ['token GET req/s, p99 (ms), check cached', `${t.tokenCached.requestsPerSecond}, ${t.tokenCached.p99Ms}`, '', ''],
    [
      'token GET req/s, p99 (ms), identity asked each time',
      `${t.tokenUncached.requestsPerSecond}, ${t.tokenUncached.p99Ms}`,
      '',
      '',
    ],
    ['cached / uncached throughput', String(t.cachedSpeedup), '', ''],
    ['CPU µs per token GET, cached', cpuLine(t.tokenCached.cpuMicrosPerRequest), '', ''],
    ['CPU µs per token GET, uncached', cpuLine(t.tokenUncached.cpuMicrosPerRequest), '', ''],
  ]);
  save('tokens', t);
}

if (!only || only === 'admin-users') {
  process.stdout.write('\nadmin users: GET /api/admin/users with 10,000 users, first page and a search…\n');
  const a = await runAdminUsers();
  table([
    ['users in the table', String(a.users), '', ''],
    ['first page req/s (8 connections)', String(a.firstPage.requestsPerSecond), '', ''],
    ['first page p99 (ms)', String(a.firstPage.p99Ms), '<= 50', met(a.firstPage.p99Ms <= 50)],
    [`search (${a.search.matches} matches) req/s`, String(a.search.requestsPerSecond), '', ''],
    ['search p99 (ms)', String(a.search.p99Ms), '<= 50', met(a.search.p99Ms <= 50)],
    ['counters p99 (ms)', String(a.summary.p99Ms), '', ''],
    ['CPU µs per first-page GET', cpuLine(a.firstPage.cpuMicrosPerRequest), '', ''],
  ]);
  save('admin-users', a);
}

if (!only || only === 'audit') {
  process.stdout.write(
    '\naudit: a workspace audit log of 100,000 entries at 16 connections; the timeline with actors and without…\n',
  );
  const a = await runAudit();
  const t = a.timeline;
  table([
    ['entries in the log', String(a.entries), '', ''],
    [
      'first page req/s, p50 / p99 (ms)',
      `${a.firstPage.requestsPerSecond}, ${a.firstPage.p50Ms} / ${a.firstPage.p99Ms}`,
      '<= 50',
      met(a.firstPage.p99Ms <= 50),
    ],
    [
      `by kind (${a.byKind.matches}) req/s, p50 / p99 (ms)`,
      `${a.byKind.requestsPerSecond}, ${a.byKind.p50Ms} / ${a.byKind.p99Ms}`,
      '<= 50',
      met(a.byKind.p99Ms <= 50),
    ],
    [
      `by actor (${a.byActor.matches}) req/s, p50 / p99 (ms)`,
      `${a.byActor.requestsPerSecond}, ${a.byActor.p50Ms} / ${a.byActor.p99Ms}`,
      '<= 50',
      met(a.byActor.p99Ms <= 50),
    ],
    [
      'page 200 req/s, p50 / p99 (ms)',
      `${a.deepPage.requestsPerSecond}, ${a.deepPage.p50Ms} / ${a.deepPage.p99Ms}`,
      '<= 50',
      met(a.deepPage.p99Ms <= 50),
    ],
    ['CPU µs per first-page GET', cpuLine(a.firstPage.cpuMicrosPerRequest), '', ''],
    [
      'timeline page, with actors: req/s, p50 / p99 (ms)',
      `${t.withActors.requestsPerSecond}, ${t.withActors.p50Ms} / ${t.withActors.p99Ms}`,
      '',
      '',
    ],
    [
      'timeline page, without: req/s, p50 / p99 (ms)',
      `${t.withoutActors.requestsPerSecond}, ${t.withoutActors.p50Ms} / ${t.withoutActors.p99Ms}`,
      '',
      '',
    ],
    ['timeline with actors / without, p50', `${t.p50Ratio}x`, '<= 1.1x', met(t.p50Ratio <= 1.1)],
  ]);
  save('audit', a);
}

if (!only || only === 'chat') {
  process.stdout.write('\nchat: POST /api/chat through the gateway, the model answering at once…\n');
  const c = await runChat();
  table([
    ['messages/s (one at a time)', String(c.requestsPerSecond), '', ''],
    ['per-message overhead p50 (ms)', String(c.p50Ms), '', ''],
    ['per-message overhead p99 (ms)', String(c.p99Ms), '<= 20', met(c.p99Ms <= 20)],
    ['CPU µs per message', cpuLine(c.cpuMicrosPerRequest), '', ''],
  ]);
  save('chat', c);
}

if (!only || only === 'github') {
  process.stdout.write('\ngithub: 1,000 signed release deliveries over a minute, each to the timeline…\n');
  const g = await runGitHub();
  table([
    ['deliveries sent / accepted', `${g.deliveries} / ${g.accepted}`, '', ''],
    [
      'recorded per minute',
      String(g.perMinute),
      '>= 1000',
      met(g.recorded === g.deliveries && g.perMinute >= 1000 * 0.98),
    ],
    ['delivery to timeline p50 / max (ms)', `${g.p50Ms} / ${g.maxMs}`, '', ''],
    ['delivery to timeline p99 (ms)', String(g.p99Ms), '<= 200', met(g.p99Ms <= 200)],
  ]);
  save('github', g);
}

if (!only || only === 'integrations') {
  process.stdout.write('\nintegrations: one call importing 500 domains as projects…\n');
  const i = await runIntegrations();
  table([
    ['domains imported', `${i.domains} (${i.message})`, '', ''],
    ['import call (s)', String(i.importSeconds), '<= 5', met(i.importSeconds <= 5)],
    ['projects/s', String(i.projectsPerSecond), '', ''],
    ['until the dashboard and timeline show all (s)', String(i.shownOnDashboardSeconds), '', ''],
  ]);
  save('integrations', i);
}

if (!only || only === 'web') {
  process.stdout.write(
    "\nweb: each route's first load in Chromium, the dashboard and the frequent interactions with the CPU throttled 4×…\n",
  );
  const w = await runWeb();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  table([
    ...w.routes.map(
      (r): Row => [
        `first load ${r.path}: transferred (built files)`,
        `${kb(r.transferredBytes)} (${kb(r.builtBytes)})`,
        '<= 150 KB',
        met(Math.max(r.transferredBytes, r.builtBytes) <= 150 * 1024),
      ],
    ),
    [
      'dashboard LCP, CPU 4x slower (median of 5)',
      `${w.dashboard.lcpMs} ms`,
      '<= 900 ms',
      met(w.dashboard.lcpMs <= 900),
    ],
    ['dashboard cards interactive (median of 5)', `${w.dashboard.interactiveMs} ms`, '', ''],
    ['dashboard LCP, full CPU speed, 50 ms network latency (median of 5)', `${w.dashboard.networkLcpMs} ms`, '', ''],
    ['dashboard GraphQL round trips', String(w.dashboard.graphqlCalls), '1', met(w.dashboard.graphqlCalls === 1)],
    ['dashboard API calls in all', String(w.dashboard.apiCalls), '', ''],
    ...w.interactions.map(
      (i): Row => [`INP p75, CPU 4x slower: ${i.name}`, `${i.p75Ms} ms`, '<= 100 ms', met(i.p75Ms <= 100)],
    ),
    ...w.topModules.map(
      (m, i): Row => [`first load of /, module ${i + 1} (before minifying)`, `${m.module} ${kb(m.bytes)}`, '', ''],
    ),
  ]);
  save('web', w);
}

if (!only || only === 'live') {
  process.stdout.write('\nlive: a change through the API until a browser with the project list open shows it…\n');
  const l = await runLive();
  table([
    ['change → visible in another browser, p50', `${l.p50Ms} ms`, '', ''],
    ['change → visible in another browser, p99', `${l.p99Ms} ms`, '<= 1000 ms', met(l.p99Ms <= 1000)],
    ['change → visible, slowest', `${l.maxMs} ms`, '', ''],
    ['changes', String(l.changes), '100', met(l.changes === 100)],
  ]);
  save('live', l);
}

if (!only || only === 'workspaces') {
  process.stdout.write(
    '\nworkspaces: a member of 3 workspaces of 50 projects beside 150 personal projects; a membership change seen on another gateway replica…\n',
  );
  const w = await runWorkspaces();
  const within = 1 + w.margin;
  const reads = (name: string, c: typeof w.list): Row[] => [
    [
      `${name}, team / personal p50 (p99) ms`,
      `${c.team.p50Ms} (${c.team.p99Ms}) / ${c.personal.p50Ms} (${c.personal.p99Ms})`,
      '',
      '',
    ],
    [
      `${name}, team / personal µs per project (p50)`,
      `${c.team.perProjectMicros} / ${c.personal.perProjectMicros}`,
      '',
      '',
    ],
    [
      `${name}, team per project / personal`,
      `${c.perProjectRatio}x (p99 ${c.p99Ratio}x)`,
      `<= ${within}x`,
      met(c.perProjectRatio <= within),
    ],
    [
      `${name}, round p50s team / personal ms`,
      `${c.team.roundP50Ms.join(', ')} / ${c.personal.roundP50Ms.join(', ')}`,
      '',
      '',
    ],
    [`${name}, answer bytes team / personal`, `${c.team.answerBytes} / ${c.personal.answerBytes}`, '', ''],
    [`${name}, CPU µs team`, cpuLine(c.team.cpuMicrosPerRequest), '', ''],
    [`${name}, CPU µs personal`, cpuLine(c.personal.cpuMicrosPerRequest), '', ''],
  ];
  const p = w.propagation;
  table([
    ['projects each user reaches', `${w.projects} (${w.workspaces} workspaces × ${w.projectsPerWorkspace})`, '', ''],
    ...reads('GET /api/projects', w.list),
    ...reads('dashboard query', w.dashboard),
    ['change on A → seen on B, p50 / max (ms)', `${p.p50Ms} / ${p.maxMs}`, '', ''],
    ['change on A → seen on B, p99 (ms)', String(p.p99Ms), '<= 1000', met(p.p99Ms <= 1000 && p.missed === 0)],
    [
      '  removal → GET 404, p50 / p99 / max (ms)',
      `${p.removal.p50Ms} / ${p.removal.p99Ms} / ${p.removal.maxMs}`,
      '',
      '',
    ],
    [
      '  made viewer → PUT 403, p50 / p99 / max (ms)',
      `${p.downgrade.p50Ms} / ${p.downgrade.p99Ms} / ${p.downgrade.maxMs}`,
      '',
      '',
    ],
    ['changes (not seen within 10 s)', `${p.changes} (${p.missed})`, '', ''],
    ["member's requests before the change showed, average", String(p.pollsPerChange), '', ''],
    ["the change's own request on A, p50 (ms)", String(p.changeRequestP50Ms), '', ''],
    ['undone (invite accepted, role back) → reached on B, p50 (ms)', String(p.restoreP50Ms), '', ''],
  ]);
  save('workspaces', w);
}
