/**
 * What the chaos run checks once the load and the faults are over: every acknowledged write in its
 * event store and in the read models that show it, nothing done twice, nothing parked, and every read
 * model equal to a rebuild of it from the stores (in a scratch copy of the database).
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { EventStore, RecordedEvent } from '@shiplog/event-store';
import { checklistKeys, type Project } from '@shiplog/schemas';
import { loadConfig, openEventStore, serviceEnv, vaultKeys } from '@shiplog/service-kit';
import type { ReceivedEmail } from '@shiplog/testing/smtp';
import { SealedEventStore, Vault } from '@shiplog/vault';
import pg from 'pg';
import { root } from '../../scripts/app-processes.ts';
import { serviceDefinitions } from '../../scripts/services.ts';
import type { UserLedger } from './load.ts';

/** `schema.table` of every read model, from the services' own projection definitions. */
export const readModelTables = Object.values(serviceDefinitions).flatMap((service) =>
  (service.projections ?? []).flatMap((projection) => projection.tables.map((table) => `${service.name}.${table}`)),
);

/**
 * Whether every service's relay has published all its store holds: its checkpoint at the store's last
 * event. A relay restarted after a fault waits for its leadership first, and the bus is quiet meanwhile.
 */
async function relaysCaughtUp(pool: pg.Pool): Promise<boolean> {
  for (const { name: schema } of Object.values(serviceDefinitions)) {
    const { rows } = await pool.query<{ behind: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM ${schema}.events e
         WHERE NOT EXISTS (SELECT 1 FROM ${schema}.relay_checkpoint)
            OR EXISTS (SELECT 1 FROM ${schema}.relay_checkpoint c
                       WHERE (e.transaction_id, e.global_position) > (c.commit_position::text::xid8, c.prepare_position::bigint))
       ) AS behind`,
    );
    if (rows[0]?.behind) return false;
  }
  return true;
}

/**
 * Until every relay has published what its store holds, every durable consumer of the run's stream
 * has nothing pending, and the stream has stopped growing.
 */
export async function waitUntilQuiet(
  natsUrl: string,
  namespace: string,
  databaseUrl: string,
  seconds = 120,
): Promise<boolean> {
  const nc = await connect({ servers: natsUrl });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  pool.on('error', () => {});
  try {
    const jsm = await jetstreamManager(nc);
    const stream = `${namespace.toUpperCase()}_EVENTS`;
    const deadline = Date.now() + seconds * 1000;
    let last = -1;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      const { state } = await jsm.streams.info(stream);
      let pending = 0;
      // The services' durable consumers; an ephemeral one (a killed gateway's live feed) only lapses.
      for await (const consumer of jsm.consumers.list(stream))
        if (consumer.config.durable_name) pending += consumer.num_pending + consumer.num_ack_pending;
      if (pending > 0 || state.last_seq !== last || !(await relaysCaughtUp(pool))) quietSince = Date.now();
      last = state.last_seq;
      if (Date.now() - quietSince >= 3000) return true;
      await sleep(250);
    }
    return false;
  } finally {
    await nc.close();
    await pool.end();
  }
}

export interface Findings {
  /** Acknowledged writes missing from a store or a read model, by where. */
  lost: Record<string, number>;
  /** Effects seen more than once, by where. */
  duplicates: Record<string, number>;
  /** The first few of each, to read. */
  examples: string[];
  checked: Record<string, number>;
  emails: { expected: number; received: number; sentButNotReceived: number; neverSent: number };
  chat: { acknowledged: number; unknown: number; counted: number };
  parked: number;
}

export async function verify(options: {
  pool: pg.Pool;
  /** The services' environment: the stores are read as they read them, personal data opened. */
  env: Record<string, string>;
  users: UserLedger[];
  emails: ReceivedEmail[];
}): Promise<Findings> {
  const { pool, users } = options;
  const config = loadConfig(serviceEnv, { ...process.env, ...options.env });
  const vault = new Vault(pool, vaultKeys(config));
  const storeOf = async (service: 'projects' | 'reminders'): Promise<EventStore> =>
    new SealedEventStore(await openEventStore(config, pool, service), vault);
  const projectEvents = await storeOf('projects');
  const reminderEvents = await storeOf('reminders');
  const lost: Record<string, number> = {};
  const duplicates: Record<string, number> = {};
  const checked: Record<string, number> = {};
  const examples: string[] = [];
  const note = (tally: Record<string, number>, where: string, example: string) => {
    tally[where] = (tally[where] ?? 0) + 1;
    if (examples.length < 30) examples.push(`${where}: ${example}`);
  };
  const count = (what: string) => {
    checked[what] = (checked[what] ?? 0) + 1;
  };
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[]) =>
    (await pool.query<R>(text, values)).rows;

  const emailsPerReminder = new Map<string, number>();
  for (const email of options.emails) {
    const id = /reminders\/([0-9a-f-]{36})\/complete/.exec(email.raw)?.[1];
    if (id) emailsPerReminder.set(id, (emailsPerReminder.get(id) ?? 0) + 1);
  }
  const emails = { expected: 0, received: 0, sentButNotReceived: 0, neverSent: 0 };
  const chat = { acknowledged: 0, unknown: 0, counted: 0 };

  for (const user of users) {
    const { client } = user;
    // As the user sees them: their project list and their reminders.
    // A user who did nothing after Redis lost the sessions signs in again first.
    const read = async (path: string) => {
      const answer = await client.get(path);
      if (answer.status !== 401) return answer;
      await client.post('/api/login', { username: user.username, password: user.password });
      return client.get(path);
    };
    const listed = await read('/api/projects');
    const reminders = await read('/api/reminders');
    if (listed.status !== 200 || reminders.status !== 200)
      throw new Error(`${user.username}: the lists answered ${listed.status} and ${reminders.status}`);
    const projects = new Map<string, Project>(listed.body.map((p: Project) => [p.id, p]));
    const reminderViews = new Map<string, { isCompleted: boolean }>(
      reminders.body.map((r: { id: string; isCompleted: boolean }) => [r.id, r]),
    );
    const stats = new Map(
      (
        await query<{ project_id: string; status: string }>(
          'SELECT project_id, status FROM activity.project_stats WHERE user_id = $1',
          [user.id],
        )
      ).map((r) => [r.project_id, r.status]),
    );

    const streams = new Map<string, RecordedEvent[]>();
    for (const project of user.projects.values()) {
      const shown = projects.get(project.id);
      const stored = await projectEvents.readStream(`project-${project.id}`);
      streams.set(project.id, stored);
      count('projects');
      if (!stored.some((e) => e.type === 'ProjectCreated')) note(lost, 'event store: project', project.id);
      if (project.deleted === 'yes') {
        // Said with what the store holds of it, and whose it is, to tell a lost append from a lost projection.
        const which = `${project.id} (${stored.some((e) => e.type === 'ProjectDeleted') ? 'deleted in the store' : 'not deleted in the store'}, ${shown?.workspaceId ? 'a team project' : 'personal'})`;
        if (shown) note(lost, 'project list: delete', which);
        if (stats.has(project.id)) note(lost, 'dashboard counters: delete', which);
        continue;
      }
      if (project.deleted === 'maybe') continue;
      if (!shown) {
        note(lost, 'project list: project', project.id);
        continue;
      }
      for (const [field, state] of Object.entries(project.fields))
        if (state.certain && shown[field as keyof Project] !== state.value)
          note(
            lost,
            `project list: ${field}`,
            `${project.id} shows ${shown[field as keyof Project]}, acknowledged ${state.value}`,
          );
      for (const key of checklistKeys)
        if (project.checklist[key].certain && shown.checklist[key] !== project.checklist[key].value)
          note(lost, `project list: checklist`, `${project.id} ${key} shows ${shown.checklist[key]}`);
      if (!stats.has(project.id)) note(lost, 'dashboard counters: project', project.id);
      else if (project.fields.status.certain && stats.get(project.id) !== project.fields.status.value)
        note(lost, 'dashboard counters: status', project.id);
    }

    // Backups, deployments, versions and Quick Updates: once in the store, once on the timeline.
    for (const record of user.records) {
      count('records');
      const stream = streams.get(record.projectId) ?? (await projectEvents.readStream(`project-${record.projectId}`));
      const events = stream.filter((e) => (e.data as { notes?: unknown }).notes === record.token);
      if (events.length > 1) note(duplicates, 'event store: record', `${record.kind} ${record.token}`);
      if (events.length === 0) {
        if (record.acknowledged) note(lost, `event store: ${record.kind}`, record.token);
        continue;
      }
      const rows = await query<{ id: string }>('SELECT id FROM activity.activities WHERE id = ANY($1::uuid[])', [
        events.map((e) => e.id),
      ]);
      if (rows.length < events.length) note(lost, `timeline: ${record.kind}`, record.token);
    }

    const projectGone = (id: string) => user.projects.get(id)?.deleted;
    for (const reminder of user.reminders.values()) {
      count('reminders');
      const stored = await reminderEvents.readStream(`reminder-${reminder.id}`);
      if (!stored.some((e) => e.type === 'ReminderAdded')) note(lost, 'event store: reminder', reminder.id);
      const shown = reminderViews.get(reminder.id);
      const gone = projectGone(reminder.projectId);
      if (gone === 'yes' || reminder.deleted === 'yes') {
        if (shown) note(lost, 'reminder list: delete', reminder.id);
      } else if (gone === 'no' && reminder.deleted === 'no') {
        if (!shown) note(lost, 'reminder list: reminder', reminder.id);
        else if (!reminder.dueDuringRun && reminder.completed.certain && shown.isCompleted !== reminder.completed.value)
          note(lost, 'reminder list: completed', reminder.id);
      }
      // The emails: one for each reminder that fell due during the run, never two.
      const received = emailsPerReminder.get(reminder.id) ?? 0;
      if (received > 1) note(duplicates, 'reminder emails', `${reminder.id} sent ${received} times`);
      if (reminder.dueDuringRun && gone === 'no') {
        emails.expected += 1;
        emails.received += Math.min(received, 1);
        if (received === 0) {
          if (stored.some((e) => e.type === 'ReminderNotificationSent')) emails.sentButNotReceived += 1;
          else emails.neverSent += 1;
        }
      }
    }

    // Chat: each message counted once; an unknown answer may or may not have been.
    const [usage] = await query<{ used: number }>(
      'SELECT coalesce(sum(messages_used), 0)::int AS used FROM chat.daily_chat_usage WHERE user_id = $1',
      [user.id],
    );
    const used = usage?.used ?? 0;
    chat.acknowledged += user.chat.acknowledged;
    chat.unknown += user.chat.unknown;
    chat.counted += used;
    count('chat users');
    if (used < user.chat.acknowledged)
      note(lost, 'chat usage', `${user.username}: ${used} < ${user.chat.acknowledged}`);
    if (used > user.chat.acknowledged + user.chat.unknown)
      note(duplicates, 'chat usage', `${user.username}: ${used} > ${user.chat.acknowledged + user.chat.unknown}`);

    if (user.subscribed) {
      count('subscriptions');
      const status = await read('/api/subscription/status');
      if (status.body?.status !== 'active') note(lost, 'subscription', `${user.username}: ${status.text}`);
    }
  }

  let parked = 0;
  for (const { schema } of await query<{ schema: string }>(
    `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'parked_events'`,
    [],
  )) {
    const [row] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.parked_events`, []);
    parked += row?.n ?? 0;
  }
  return { lost, duplicates, examples, checked, emails, chat, parked };
}

export interface TableComparison {
  table: string;
  rows: number;
  onlyLive: number;
  onlyRebuilt: number;
  /** A few of the rows that differ, each side, to read. */
  examples: { live: string[]; rebuilt: string[] };
}

async function snapshot(url: string): Promise<Map<string, string[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out = new Map<string, string[]>();
    for (const table of readModelTables) {
      const { rows } = await client.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${table} t`);
      out.set(table, rows.map((r) => r.row).sort());
    }
    return out;
  } finally {
    await client.end();
  }
}

/**
 * Every read model against a rebuild from the stores: the database copied (the app stopped), the copy
 * rebuilt by `pnpm projections:rebuild`, and the two compared row by row.
 */
export async function compareWithRebuild(databaseUrl: string, env: Record<string, string>) {
  const live = await snapshot(databaseUrl);
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const scratchName = `${name}_rebuild`;
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const scratch = new URL(databaseUrl);
  scratch.pathname = `/${scratchName}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${scratchName} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${scratchName} TEMPLATE ${name}`);
    const started = Date.now();
    const rebuild = spawnSync(process.execPath, ['scripts/projections-rebuild.ts'], {
      cwd: root,
      env: { ...process.env, ...env, DATABASE_URL: scratch.toString() },
      encoding: 'utf8',
    });
    if (rebuild.status !== 0) throw new Error(`projections:rebuild failed:\n${rebuild.stdout}\n${rebuild.stderr}`);
    const seconds = (Date.now() - started) / 1000;
    const rebuilt = await snapshot(scratch.toString());
    const tables: TableComparison[] = readModelTables.map((table) => {
      const a = live.get(table) ?? [];
      const b = rebuilt.get(table) ?? [];
      const bCounts = new Map<string, number>();
      for (const row of b) bCounts.set(row, (bCounts.get(row) ?? 0) + 1);
      const liveOnly: string[] = [];
      for (const row of a) {
        const n = bCounts.get(row) ?? 0;
        if (n > 0) bCounts.set(row, n - 1);
        else liveOnly.push(row);
      }
      const rebuiltOnly = [...bCounts].flatMap(([row, n]) => Array.from({ length: n }, () => row));
      return {
        table,
        rows: a.length,
        onlyLive: liveOnly.length,
        onlyRebuilt: rebuiltOnly.length,
        examples: { live: liveOnly.slice(0, 3), rebuilt: rebuiltOnly.slice(0, 3) },
      };
    });
    return { tables, equal: tables.every((t) => t.onlyLive === 0 && t.onlyRebuilt === 0), seconds };
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${scratchName} WITH (FORCE)`);
    await client.end();
  }
}
