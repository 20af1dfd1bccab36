/**
 * Team workspaces, on the app as `npm start` runs it:
 *
 * 1. The reads a team member makes most, `GET /api/projects` and the dashboard's GraphQL query, for a
 *    user who belongs to 3 workspaces of 50 projects each (150 projects, none personal), side by side
 *    with an account holding 150 personal projects: one request at a time, in interleaved rounds, the
 *    median round's p50, the p99 and the time per project (p50 / 150). Target: the team member no
 *    slower per project than the personal account, within 10% (what one user's rounds wander).
 * 2. A membership change seen by the member's next request on another gateway replica: a second
 *    gateway process over the same services, Redis and bus (deploy/k8s runs two). The owner, on
 *    replica A, removes the member from the workspace, or makes them a viewer; the member, on replica
 *    B, reads the team's project (`GET`, until 404) or changes it (`PUT`, until 403), request after
 *    request, from the moment A answered. Then the owner undoes the change (an invite the member
 *    accepts, or the role back) and B is waited on until the member reaches the project again.
 *    Target: p99 ≤ 1 s.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, uniqueUsername } from '@shiplog/system';
import { createTestBusNamespace, createTestDatabase, freePort, waitUntil } from '@shiplog/testing';
import { launchApp } from '../scripts/launch.ts';
import { benchAppEnv, startGatewayReplica, stop } from './app.ts';
import { cpuByGroup, cpuPerRequest } from './cpu.ts';

const WORKSPACES = 3;
const PROJECTS_PER_WORKSPACE = 50;
const PROJECTS = WORKSPACES * PROJECTS_PER_WORKSPACE;
/** Interleaved rounds of each read, and how long each read is repeated in a round. */
const ROUNDS = 6;
const ROUND_SECONDS = 2;
/** Membership changes: half removals, half downgrades to viewer, alternating. */
const CHANGES = 200;
/** A change not seen on replica B by then counts as this late, and is reported as missed. */
const GIVE_UP_MS = 10_000;

const DASHBOARD = /* GraphQL */ `
  query Dashboard($filter: ProjectFilter, $sort: ProjectSort) {
    dashboard {
      user { id username email subscriptionStatus isAdmin }
      counters { totalProjects activeProjects completedProjects totalChange activeChange completedChange }
      projects(filter: $filter, sort: $sort) { id name status checklist { deployed } costEstimate createdAt }
      recentActivities { id projectId eventType action details timestamp }
    }
  }
`;

export interface ReadFigures {
  requests: number;
  /** The median round's p50 (the machine's speed wanders between rounds). */
  p50Ms: number;
  /** Over every request of every round. */
  p99Ms: number;
  /** p50 over the projects the answer covers, µs. */
  perProjectMicros: number;
  /** Each round's p50, ms: how steady the figure was. */
  roundP50Ms: number[];
  answerBytes: number;
  cpuMicrosPerRequest: Record<string, number>;
}

export interface ReadComparison {
  team: ReadFigures;
  personal: ReadFigures;
  /** Team over personal, time per project (p50). */
  perProjectRatio: number;
  /** Team over personal, p99. */
  p99Ratio: number;
}

export interface DelayFigures {
  changes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Not seen on replica B within GIVE_UP_MS. */
  missed: number;
  /** Requests replica B answered before the change showed, on average. */
  pollsPerChange: number;
}

export interface WorkspacesResult {
  workspaces: number;
  projectsPerWorkspace: number;
  projects: number;
  rounds: number;
  roundSeconds: number;
  /** Allowed excess of the team member's time per project over the personal account's. */
  margin: number;
  list: ReadComparison;
  dashboard: ReadComparison;
  /** Replica A's answer to the change → replica B answering as changed; removals and downgrades. */
  propagation: DelayFigures & {
    removal: DelayFigures;
    downgrade: DelayFigures;
    /** The change's own request on A, p50 (not in the delay). */
    changeRequestP50Ms: number;
    /** Undoing it (an invite accepted, the role back) until B reaches the project again, p50. */
    restoreP50Ms: number;
  };
}

const MARGIN = 0.1;

const round2 = (n: number) => Math.round(n * 100) / 100;
const round1 = (n: number) => Math.round(n * 10) / 10;
function at(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

function expect(response: { status: number; text: string }, status: number, what: string) {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${response.text}`);
}

async function signUp(url: string, prefix: string) {
  const client = new Client(url);
  const username = uniqueUsername(prefix);
  const response = await client.post('/api/register', { username, password: 'bench-password' });
  expect(response, 201, 'register');
  return { client, username, id: response.body.id as string };
}

type Member = Awaited<ReturnType<typeof signUp>>;

/** Invites `member` to the workspace with `role` as `owner`, and has them accept it. */
async function join(owner: Client, workspaceId: string, member: Member, role: string) {
  const invite = await owner.post(`/api/workspaces/${workspaceId}/invites`, { username: member.username, role });
  expect(invite, 201, 'invite');
  // The invite reaches the invitee's list through the bus.
  await waitUntil(
    async () =>
      ((await member.client.get('/api/invites')).body as { id: string }[]).some((i) => i.id === invite.body.id),
    10_000,
    'the invite',
  );
  expect(await member.client.post(`/api/invites/${invite.body.id}/accept`), 200, 'accept');
}

async function createProjects(client: Client, count: number, workspaceId?: string) {
  for (let i = 0; i < count; i++) {
    const made = await client.post('/api/projects', {
      name: `Project ${i}`,
      description: 'A project with a description of ordinary length.',
      status: i % 3 === 0 ? 'deployed' : 'development',
      ...(workspaceId ? { workspaceId } : {}),
    });
    expect(made, 201, 'create');
  }
}

interface Read {
  url: string;
  init: RequestInit;
}

/** Repeats `read` one at a time for `seconds`: each request's time, ms. */
async function repeat(read: Read, seconds: number): Promise<{ times: number[]; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(read.url, read.init);
    const body = await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200 || body.includes('"errors"'))
      throw new Error(`${read.url} answered ${response.status}: ${body.slice(0, 300)}`);
    bytes = body.length;
  }
  return { times, bytes };
}

/** Team and personal reads of one kind, interleaved round by round (who goes first alternating). */
async function compare(team: Read, personal: Read): Promise<ReadComparison> {
  // Warm both paths (JIT tiers, pools, caches).
  await repeat(team, 2);
  await repeat(personal, 2);
  const samples = { team: [] as number[][], personal: [] as number[][] };
  const cpu = { team: [] as Record<string, number>[], personal: [] as Record<string, number>[] };
  const bytes = { team: 0, personal: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['team', 'personal'] as const) : (['personal', 'team'] as const);
    for (const who of order) {
      const before = cpuByGroup();
      const ran = await repeat(who === 'team' ? team : personal, ROUND_SECONDS);
      cpu[who].push(cpuPerRequest(before, cpuByGroup(), ran.times.length));
      samples[who].push(ran.times);
      bytes[who] = ran.bytes;
    }
  }
  const figures = (who: 'team' | 'personal'): ReadFigures => {
    const all = samples[who].flat().sort((a, b) => a - b);
    const rounds = samples[who].map((times) =>
      at(
        [...times].sort((a, b) => a - b),
        0.5,
      ),
    );
    const p50 = [...rounds].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
    // The CPU of the median round by CPU: one round's reading, as the projects bench does.
    const middle = [...cpu[who]].sort((a, b) => (a.total ?? 0) - (b.total ?? 0))[Math.floor(ROUNDS / 2)]!;
    return {
      requests: all.length,
      p50Ms: round2(p50),
      p99Ms: round2(at(all, 0.99)),
      perProjectMicros: round1((p50 * 1000) / PROJECTS),
      roundP50Ms: rounds.map(round2),
      answerBytes: bytes[who],
      cpuMicrosPerRequest: middle,
    };
  };
  const t = figures('team');
  const p = figures('personal');
  return {
    team: t,
    personal: p,
    perProjectRatio: round2(t.perProjectMicros / p.perProjectMicros),
    p99Ratio: round2(t.p99Ms / p.p99Ms),
  };
}

function delays(list: { delayMs: number; polls: number; missed: boolean }[]): DelayFigures {
  const sorted = list.map((d) => d.delayMs).sort((a, b) => a - b);
  return {
    changes: list.length,
    p50Ms: round1(at(sorted, 0.5)),
    p99Ms: round1(at(sorted, 0.99)),
    maxMs: round1(sorted.at(-1) ?? Number.NaN),
    missed: list.filter((d) => d.missed).length,
    pollsPerChange: round1(list.reduce((sum, d) => sum + d.polls, 0) / list.length),
  };
}

/** Asks `ask` back to back until `seen` says the answer shows the change: from `since`, ms, and how many asks. */
async function pollUntil(
  ask: () => Promise<{ status: number }>,
  seen: (status: number) => boolean,
  since: number,
): Promise<{ delayMs: number; polls: number; missed: boolean }> {
  let polls = 0;
  for (;;) {
    const answer = await ask();
    polls++;
    const now = performance.now();
    if (seen(answer.status)) return { delayMs: now - since, polls, missed: false };
    if (now - since > GIVE_UP_MS) return { delayMs: now - since, polls, missed: true };
  }
}

export async function runWorkspaces(): Promise<WorkspacesResult> {
  const db = await createTestDatabase('bench_workspaces');
  const ns = createTestBusNamespace('bench_workspaces');
  const port = await freePort();
  const appEnv = await benchAppEnv(db.url, ns.namespace, port);
  const app = (await launchApp(appEnv)).child;
  const url = `http://localhost:${port}`;
  let replica: Awaited<ReturnType<typeof startGatewayReplica>> | undefined;
  try {
    // 1. The team member's reads beside the personal account's.
    const teamUser = await signUp(url, 'team');
    const personalUser = await signUp(url, 'solo');
    const owners = await Promise.all(Array.from({ length: WORKSPACES }, (_, i) => signUp(url, `lead${i}`)));
    await Promise.all([
      ...owners.map(async (owner, i) => {
        const workspace = await owner.client.post('/api/workspaces', { name: `Crew ${i}` });
        expect(workspace, 201, 'create workspace');
        await join(owner.client, workspace.body.id, teamUser, 'member');
        await createProjects(owner.client, PROJECTS_PER_WORKSPACE, workspace.body.id);
      }),
      createProjects(personalUser.client, PROJECTS),
    ]);
    // Made by others: the lists and the dashboard's counters have them once the bus has brought them.
    for (const user of [teamUser, personalUser]) {
      await waitUntil(
        async () => ((await user.client.get('/api/projects')).body as unknown[]).length === PROJECTS,
        30_000,
        `${user.username}'s ${PROJECTS} projects`,
      );
      await waitUntil(
        async () =>
          (await user.client.post('/api/graphql', { query: '{ dashboard { counters { totalProjects } } }' })).body?.data
            ?.dashboard?.counters?.totalProjects === PROJECTS,
        30_000,
        `${user.username}'s dashboard counters`,
      );
    }
    // The other consumers (monitors, integrations, billing…) finish with the 300 creates.
    await sleep(5000);
    const list = (user: Member): Read => ({
      url: `${url}/api/projects`,
      init: { headers: { cookie: user.client.sessionCookie! } },
    });
    const dashboard = (user: Member): Read => ({
      url: `${url}/api/graphql`,
      init: {
        method: 'POST',
        headers: { cookie: user.client.sessionCookie!, 'content-type': 'application/json' },
        body: JSON.stringify({ query: DASHBOARD }),
      },
    });
    const listComparison = await compare(list(teamUser), list(personalUser));
    const dashboardComparison = await compare(dashboard(teamUser), dashboard(personalUser));

    // 2. A membership change on replica A, seen by the member's next request on replica B.
    const replicaPort = await freePort();
    replica = await startGatewayReplica(appEnv, replicaPort);
    const replicaUrl = `http://localhost:${replicaPort}`;
    const owner = await signUp(url, 'owner');
    // The member's browser is served by replica B throughout.
    const member = await signUp(replicaUrl, 'member');
    const workspace = await owner.client.post('/api/workspaces', { name: 'Replicas' });
    expect(workspace, 201, 'create workspace');
    const workspaceId = workspace.body.id as string;
    await join(owner.client, workspaceId, member, 'member');
    const made = await owner.client.post('/api/projects', { name: 'Across replicas', workspaceId });
    expect(made, 201, 'create');
    const project = `/api/projects/${made.body.id}`;
    await waitUntil(async () => (await member.client.get(project)).status === 200, 10_000, 'the member to reach it');

    const removals: Awaited<ReturnType<typeof pollUntil>>[] = [];
    const downgrades: Awaited<ReturnType<typeof pollUntil>>[] = [];
    const changeRequests: number[] = [];
    const restores: number[] = [];
    let edit = 0;
    const put = () => member.client.request('PUT', project, { description: `Edit ${++edit}` });
    for (let i = 0; i < CHANGES; i++) {
      const removal = i % 2 === 0;
      const sent = performance.now();
      const change = removal
        ? await owner.client.request('DELETE', `/api/workspaces/${workspaceId}/members/${member.id}`)
        : await owner.client.request('PUT', `/api/workspaces/${workspaceId}/members/${member.id}`, { role: 'viewer' });
      expect(change, removal ? 204 : 200, removal ? 'remove member' : 'make viewer');
      const answered = performance.now();
      changeRequests.push(answered - sent);
      if (removal) {
        removals.push(
          await pollUntil(
            () => member.client.get(project),
            (status) => status === 404,
            answered,
          ),
        );
        const undoing = performance.now();
        await join(owner.client, workspaceId, member, 'member');
        await waitUntil(async () => (await member.client.get(project)).status === 200, GIVE_UP_MS, 'member again');
        restores.push(performance.now() - undoing);
      } else {
        downgrades.push(await pollUntil(put, (status) => status === 403, answered));
        const undoing = performance.now();
        const back = await owner.client.request('PUT', `/api/workspaces/${workspaceId}/members/${member.id}`, {
          role: 'member',
        });
        expect(back, 200, 'make member');
        await waitUntil(async () => (await put()).status === 200, GIVE_UP_MS, 'member again');
        restores.push(performance.now() - undoing);
      }
      await sleep(20);
    }
    const sortedChanges = changeRequests.sort((a, b) => a - b);
    const sortedRestores = restores.sort((a, b) => a - b);
    return {
      workspaces: WORKSPACES,
      projectsPerWorkspace: PROJECTS_PER_WORKSPACE,
      projects: PROJECTS,
      rounds: ROUNDS,
      roundSeconds: ROUND_SECONDS,
      margin: MARGIN,
      list: listComparison,
      dashboard: dashboardComparison,
      propagation: {
        ...delays([...removals, ...downgrades]),
        removal: delays(removals),
        downgrade: delays(downgrades),
        changeRequestP50Ms: round1(at(sortedChanges, 0.5)),
        restoreP50Ms: round1(at(sortedRestores, 0.5)),
      },
    };
  } finally {
    if (replica) await stop(replica);
    await stop(app);
    await ns.drop();
    await db.drop();
  }
}
