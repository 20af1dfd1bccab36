import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@shiplog/events';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { isSealed } from '@shiplog/vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backedUpSchemas, backup, restore } from '../../../scripts/backup.ts';
import { rebuildAll } from '../../../scripts/projections-rebuild.ts';

/**
 * Account deletion leaves nothing behind. The events stay in the stores (and on the bus), sealed with
 * the user's key, which is destroyed: crypto-shredded. What remains in the clear is ids only.
 */
let backend: Backend;
const ADMIN_PASSWORD = 'admin-secret-1';

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
});
afterAll(async () => {
  await backend?.stop();
});

const eventTables = new Set(['events', 'streams']);

async function signUp(prefix: string) {
  const username = uniqueUsername(prefix);
  const email = `${username}@example.com`;
  const user = await backend.signUp(prefix, { username, email });
  return { ...user, email };
}

describe('account deletion', () => {
  it('records password and account-information changes on the timeline as security updates', async () => {
    const { client } = await signUp('sec');
    await client.post('/api/user/account-info', { email: 'moved@example.com', phoneNumber: '+1 555 0101' });
    await client.post('/api/user/change-password', { oldPassword: 'secret-pass-1', newPassword: 'secret-pass-2' });
    const timeline = (await client.get('/api/activities')).body;
    expect(
      timeline.map((a: { eventType: string; action: string; details: string; projectId: string | null }) => [
        a.eventType,
        a.action,
        a.details,
        a.projectId,
      ]),
    ).toEqual([
      ['security_update', 'updated', 'Password changed', null],
      ['security_update', 'updated', 'Account information updated', null],
    ]);
  });

  it('deletes the account and everything it owns in every service, ends its sessions, and leaves others alone', async () => {
    const ada = await signUp('gone');
    const bob = await signUp('stays');
    const laptop = new Client(backend.url);
    expect((await laptop.post('/api/login', { username: ada.username, password: 'secret-pass-1' })).status).toBe(200);

    // Ada leaves traces in every service.
    const marker = `Zq${Date.now().toString(36)}`;
    await ada.client.post('/api/profile', {
      displayName: `Ada ${marker}`,
      bio: `bio ${marker}`,
      twitter: `@ada${marker}`,
      projectVisibility: 'private',
    });
    await ada.client.post('/api/user/account-info', { email: ada.email, phoneNumber: '+44 20 7946 0000' });
    await ada.client.post('/api/notifications/settings', {
      emailNotifications: false,
      projectUpdates: true,
      securityAlerts: true,
      marketingEmails: true,
    });
    const project = (
      await ada.client.post('/api/projects', {
        name: `Launchpad ${marker}`,
        description: `Secret plans ${marker}`,
        status: 'development',
      })
    ).body;
    const other = (await ada.client.post('/api/projects', { name: `Sideline ${marker}` })).body;
    await ada.client.post(`/api/projects/${project.id}/deployment`, {
      version: '1.0.0',
      url: 'https://launchpad.example.com',
      notes: `deployed ${marker}`,
    });
    await ada.client.post(`/api/projects/${project.id}/version`, { version: '1.1.0', changes: [`change ${marker}`] });
    await ada.client.request('DELETE', `/api/projects/${other.id}`);
    const dueDate = new Date(Date.now() + 86_400_000).toISOString();
    const reminder = await ada.client.post('/api/reminders', {
      projectId: project.id,
      title: `Renew ${marker}`,
      description: `domain ${marker}`,
      dueDate,
    });
    expect(reminder.status).toBe(201);
    expect((await ada.client.post('/api/reminders/calendar')).status).toBeLessThan(300);
    expect(
      (await ada.client.post('/api/contact-admin', { subject: `Help ${marker}`, message: `Message ${marker}` })).status,
    ).toBe(201);
    await ada.client.post('/api/user/change-password', { oldPassword: 'secret-pass-1', newPassword: 'secret-pass-2' });
    const bobProject = (await bob.client.post('/api/projects', { name: 'Bob keeps this' })).body;

    // Every read model has caught up with Ada's traces before she goes.
    expect((await ada.client.get('/api/activities?limit=50')).body.length).toBeGreaterThan(4);
    expect((await ada.client.get('/api/reminders')).body).toHaveLength(1);
    // An event of hers that a consumer parked (it kept failing) keeps its data sealed, but its error
    // may quote what she wrote.
    await backend.pool.query(
      `INSERT INTO activity.parked_events (consumer, event_id, event_type, source, position, user_id, event, error)
       VALUES ('activity-timeline', $1, 'ProjectCreated', 'projects', '1/1', $2, '{}', $3)`,
      [newId(), ada.id, `error: value too long for "Launchpad ${marker}"`],
    );
    const before = [...(await backend.everyRow()).values()].flat();
    expect(before.some((row) => row.includes(ada.id))).toBe(true);
    expect(before.some((row) => row.includes(ada.username))).toBe(true);

    // Deleting needs a session; an administrator's own account is not deletable.
    expect((await new Client(backend.url).request('DELETE', '/api/user')).status).toBe(401);
    const admin = new Client(backend.url);
    expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    expect((await admin.request('DELETE', '/api/user')).status).toBe(403);

    const deleted = await ada.client.request('DELETE', '/api/user');
    expect(deleted.status).toBe(200);
    expect(deleted.setCookie).toContain('Expires=Thu, 01 Jan 1970');
    expect((await ada.client.get('/api/user')).status).toBe(401);
    expect((await laptop.get('/api/user')).status).toBe(401);
    expect((await laptop.get('/api/projects')).status).toBe(401);
    expect(
      (await new Client(backend.url).post('/api/login', { username: ada.username, password: 'secret-pass-2' })).status,
    ).toBe(401);

    // Nothing of Ada is left in any service's tables: not her id, name, address or anything she wrote.
    const secrets = [ada.username, ada.email, marker, '+44 20 7946 0000'];
    const noTrace = async () => {
      const leftovers: string[] = [];
      for (const [table, rows] of await backend.everyRow()) {
        const [, name] = table.split('.');
        // The event tables keep ids (the shredded events' stream ids and metadata); the vault keeps
        // the id of whom it forgot. No other table may even name her id.
        const forbidden =
          eventTables.has(name!) || table === 'vault.forgotten_subjects' ? secrets : [...secrets, ada.id];
        for (const row of rows) if (forbidden.some((s) => row.includes(s))) leftovers.push(`${table}: ${row}`);
      }
      return leftovers;
    };
    await expect.poll(noTrace, { timeout: 10_000 }).toEqual([]);

    // Her events are still there, sealed with a key that no longer exists; the bus's copies too.
    const { rows: keys } = await backend.pool.query('SELECT 1 FROM vault.subject_keys WHERE subject = $1', [ada.id]);
    expect(keys).toEqual([]);
    const { rows: hers } = await backend.pool.query<{ type: string; data: unknown }>(
      `SELECT type, data FROM projects.events WHERE metadata->>'userId' = $1`,
      [ada.id],
    );
    expect(hers.length).toBeGreaterThan(3);
    expect(hers.every((e) => isSealed(e.data))).toBe(true);
    const messages = await backend.everyBusMessage();
    expect(messages.some((m) => m.includes(ada.id))).toBe(true);
    expect(messages.filter((m) => secrets.some((s) => m.includes(s)))).toEqual([]);

    // The API knows nothing of her; Bob's account is untouched.
    expect((await bob.client.get(`/api/projects/${project.id}`)).status).toBe(404);
    expect((await bob.client.get('/api/projects')).body.map((p: { id: string }) => p.id)).toEqual([bobProject.id]);
    expect((await bob.client.get('/api/user')).status).toBe(200);

    // A rebuild from the stores cannot bring her back.
    await rebuildAll({ DATABASE_URL: backend.databaseUrl, BUS_NAMESPACE: backend.busNamespace, NODE_ENV: 'test' });
    expect(await noTrace()).toEqual([]);
    expect((await bob.client.get('/api/projects')).body).toHaveLength(1);

    // Nor a backup: restored into an emptied database, with every read model rebuilt from the restored
    // events, every table is as it was, and still nothing of her.
    const file = join(mkdtempSync(join(tmpdir(), 'shiplog-backup-')), 'shiplog.dump');
    const env = { ...backend.serviceEnv, DATABASE_URL: backend.databaseUrl, BUS_NAMESPACE: backend.busNamespace };
    const made = await backup(env, file);
    expect(made.events).toBeGreaterThan(10);
    // Each consumer's record of what it handled keeps when: for the rebuilt read models, that is the rebuild's time.
    const handledWhen = (table: string, row: string) =>
      table.endsWith('.handled_events') ? row.replace(/,"[^"]*"\)$/, ')') : row;
    const sorted = async () =>
      new Map(
        [...(await backend.everyRow())].map(([table, rows]) => [table, rows.map((r) => handledWhen(table, r)).sort()]),
      );
    const saved = await sorted();
    const dropAll = () => backend.pool.query(`DROP SCHEMA IF EXISTS ${backedUpSchemas.join(', ')} CASCADE`);
    await backend.restart(async () => {
      await expect(restore(env, file)).rejects.toThrow(/already holds Shiplog's schemas/);
      await dropAll();
      // Without the master key the backup was made with, its data keys do not open: the restore says so.
      await expect(restore({ ...env, VAULT_KEY_SECRET: 'another-master-key-0123456789abcdef' }, file)).rejects.toThrow(
        /do not open with VAULT_KEY_SECRET/,
      );
      await dropAll();
      const restored = await restore(env, file);
      expect(restored.events).toBe(made.events);
      expect(restored.rebuilt.length).toBeGreaterThan(5);
    });
    expect(await sorted()).toEqual(saved);
    expect(await noTrace()).toEqual([]);
    expect((await bob.client.get('/api/projects')).body.map((p: { id: string }) => p.id)).toEqual([bobProject.id]);

    // Her username is free again, for a new account that starts empty.
    const again = new Client(backend.url);
    const registered = await again.post('/api/register', { username: ada.username, password: 'another-pass-1' });
    expect(registered.status).toBe(201);
    expect(registered.body.id).not.toBe(ada.id);
    expect((await again.get('/api/projects')).body).toEqual([]);
    expect((await again.get('/api/activities')).body).toEqual([]);
  });
});
