/**
 * Rebuild benchmark: every projection rebuilt from 100,000 events, as `pnpm
 * projections:rebuild` does it. The events are real: one user does, through the API, what a user does
 * (registers, creates projects, edits them, ticks the checklist, records backups, deployments and
 * releases, adds reminders and completes one); that user's events are then copied, with fresh ids and
 * their own user's key, into the stores until they hold 100,000. The app is stopped while the rebuild
 * runs, so the figure is the rebuild's alone. Target: ≤ 20 s.
 */

import type { EventStore, RecordedEvent } from '@shiplog/event-store';
import { newId } from '@shiplog/events';
import { loadConfig, openEventStore, type ServiceName, serviceEnv, vaultKeys } from '@shiplog/service-kit';
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { SealedEventStore, Vault } from '@shiplog/vault';
import pg from 'pg';
import { rebuildAll } from '../scripts/projections-rebuild.ts';
import { benchSecrets, signUp, startBenchApp, stop } from './app.ts';

const TARGET_EVENTS = 100_000;
const stores: ServiceName[] = ['identity', 'billing', 'projects', 'reminders', 'chat', 'integrations', 'monitors'];

export interface RebuildResult {
  /** Events in the stores, and how many of them one user's template holds. */
  storedEvents: number;
  templateEvents: number;
  users: number;
  seedSeconds: number;
  seconds: number;
  /** Stored events per second of rebuild. */
  eventsPerSecond: number;
  /** Events handled in all, summed over the projections (an event can feed several). */
  replayed: number;
  projections: { projection: string; events: number; seconds: number }[];
}

/** The template user's life through the API: the events every copy repeats. */
async function liveATemplateUser(url: string, username: string): Promise<void> {
  const user = await signUp(url, username);
  let cookie = user.cookie;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json', origin: url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    cookie = [cookie, ...response.headers.getSetCookie().map((c) => c.split(';')[0]!)].join('; ');
    return (await response.json()) as { id: string };
  };
  const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString();
  for (let i = 1; i <= 5; i++) {
    const project = await call('POST', '/api/projects', {
      name: `Side project ${i}`,
      description: 'A small thing to ship',
      status: 'planning',
    });
    await call('PUT', `/api/projects/${project.id}`, { description: 'A small thing, nearly shipped' });
    await call('PUT', `/api/projects/${project.id}`, { status: 'development' });
    await call('PUT', `/api/projects/${project.id}`, { hasTests: true });
    await call('PUT', `/api/projects/${project.id}`, { hasDeployment: true });
    await call('POST', `/api/projects/${project.id}/backup`, { notes: 'nightly' });
    await call('POST', `/api/projects/${project.id}/deployment`, {
      environment: 'production',
      version: '1.0.0',
      notes: 'first deploy',
    });
    await call('POST', `/api/projects/${project.id}/version`, {
      version: '1.0.0',
      notes: 'launch',
      changes: ['First'],
    });
    if (i <= 3) {
      const reminder = await call('POST', '/api/reminders', {
        projectId: project.id,
        title: `Renew the domain of project ${i}`,
        dueDate: inAMonth,
        reminderTimes: ['at_time'],
      });
      if (i === 1) await call('POST', `/api/reminders/${reminder.id}/complete`);
    }
  }
}

const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * One copy of the template: every uuid in it (user, projects, reminders, correlations) replaced by a
 * fresh one, consistently, and the username by the copy's own.
 */
function copyOf(template: string, username: string, copy: string) {
  const fresh = new Map<string, string>();
  return template
    .replace(uuidPattern, (id) => {
      if (!fresh.has(id)) fresh.set(id, newId());
      return fresh.get(id)!;
    })
    .replaceAll(username, copy);
}

export async function runRebuild(): Promise<RebuildResult> {
  const db = await createTestDatabase('bench_rebuild');
  const ns = createTestBusNamespace('bench_rebuild');
  const env = {
    ...process.env,
    ...benchSecrets,
    DATABASE_URL: db.url,
    BUS_NAMESPACE: ns.namespace,
    NODE_ENV: 'production',
  };
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  pool.on('error', () => {});
  try {
    const username = `template${Date.now().toString(36)}`;
    const port = await freePort();
    const app = await startBenchApp(db.url, ns.namespace, port);
    try {
      await liveATemplateUser(`http://127.0.0.1:${port}`, username);
    } finally {
      await stop(app);
    }

    const config = loadConfig(serviceEnv, env);
    const vault = new Vault(pool, vaultKeys(config));
    const opened = new Map<ServiceName, EventStore>(
      await Promise.all(
        stores.map(async (s) => [s, new SealedEventStore(await openEventStore(config, pool, s), vault)] as const),
      ),
    );
    // The template: each store's streams with their events, opened, in store order.
    const template: {
      store: ServiceName;
      streamId: string;
      events: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>[];
    }[] = [];
    for (const store of stores) {
      const recorded = await vault.open(await opened.get(store)!.readAll({ after: undefined, limit: 100_000 }));
      for (const event of recorded) {
        if (!event) throw new Error(`a template event of ${store} could not be opened`);
        const found = template.find((s) => s.store === store && s.streamId === event.streamId);
        const stream = found ?? { store, streamId: event.streamId, events: [] };
        if (!found) template.push(stream);
        stream.events.push({ type: event.type, data: event.data, metadata: event.metadata });
      }
    }
    const templateEvents = template.reduce((n, s) => n + s.events.length, 0);
    const copies = Math.ceil(TARGET_EVENTS / templateEvents) - 1;
    const text = JSON.stringify(template);

    const seedStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < copies) {
          const i = next++;
          const streams = JSON.parse(copyOf(text, username, `${username}c${i}`)) as typeof template;
          for (const { store, streamId, events } of streams) {
            await opened.get(store)!.append(
              streamId,
              events.map((e) => ({ id: newId(), ...e })),
              { expectedRevision: 'no_stream' },
            );
          }
        }
      }),
    );
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const { rows } = await pool.query<{ n: number }>(
      `SELECT (${stores.map((s) => `(SELECT count(*) FROM ${s}.events)`).join(' + ')})::int AS n`,
    );
    const storedEvents = rows[0]!.n;

    const started = performance.now();
    const projections = await rebuildAll(env);
    const seconds = (performance.now() - started) / 1000;

    // The rebuild must have built what the events say: every copy's five projects, and its timeline.
    const users = copies + 1;
    const counts = await pool.query<{ projects: number; activities: number }>(
      `SELECT (SELECT count(*) FROM projects.project_list)::int AS projects,
              (SELECT count(*) FROM activity.activities)::int AS activities`,
    );
    const { projects, activities } = counts.rows[0]!;
    if (projects !== users * 5 || activities < users * 20)
      throw new Error(`the rebuild made ${projects} projects and ${activities} timeline rows for ${users} users`);
    return {
      storedEvents,
      templateEvents,
      users,
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      seconds: Math.round(seconds * 10) / 10,
      eventsPerSecond: Math.round(storedEvents / seconds),
      replayed: projections.reduce((n, p) => n + p.events, 0),
      projections,
    };
  } finally {
    await pool.end();
    await ns.drop();
    await db.drop();
  }
}
