import { newId } from '@shiplog/events';
import { ORPHANED_CLAIM_MS } from '@shiplog/identity/user/accounts';
import { usernameStream } from '@shiplog/identity/username-claim';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
const ADMIN_PASSWORD = 'admin-secret-1';

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
});
afterAll(async () => {
  await backend?.stop();
});

async function signUp(prefix = 'acct', password = 'secret-pass-1') {
  const client = new Client(backend.url);
  const username = uniqueUsername(prefix);
  expect((await client.post('/api/register', { username, password, email: `${username}@example.com` })).status).toBe(
    201,
  );
  return { client, username };
}

describe('profile', () => {
  it('starts from the username, validates with the spec messages and normalises links', async () => {
    const { client, username } = await signUp();
    const initial = await client.get('/api/profile');
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({
      username,
      displayName: username,
      bio: null,
      projectVisibility: 'public',
      isReplitLinked: false,
    });

    const invalid = await client.post('/api/profile', {
      displayName: ' ',
      phoneNumber: '1'.repeat(21),
      projectVisibility: 'friends',
      website: 'not a url',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors).toEqual({
      displayName: ['Display name is required'],
      phoneNumber: ['Phone number must be at most 20 characters'],
      projectVisibility: ['Project visibility must be public or private'],
      website: ['Please enter a valid URL'],
    });

    const saved = await client.post('/api/profile', {
      displayName: 'Ada L.',
      bio: 'Builds small things',
      github: 'github.com/ada',
      twitter: '@ada',
      linkedin: 'linkedin.com/in/ada',
      website: '',
      projectVisibility: 'private',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      displayName: 'Ada L.',
      bio: 'Builds small things',
      github: 'https://github.com/ada',
      twitter: 'https://twitter.com/ada',
      linkedin: 'https://linkedin.com/in/ada',
      website: null,
      projectVisibility: 'private',
    });
    expect((await client.get('/api/profile')).body).toEqual(saved.body);
    expect((await new Client(backend.url).get('/api/profile')).status).toBe(401);
  });
});

describe('account info and notification settings', () => {
  it('updates the email (valid or empty) and phone', async () => {
    const { client } = await signUp();
    expect((await client.post('/api/user/account-info', { email: 'nope' })).body.fieldErrors).toEqual({
      email: ['Invalid email'],
    });
    const updated = await client.post('/api/user/account-info', {
      email: 'new@example.com',
      phoneNumber: '+1 555 0100',
    });
    expect(updated.body).toEqual({ email: 'new@example.com', phoneNumber: '+1 555 0100', emailVerified: false });
    expect((await client.get('/api/user')).body.email).toBe('new@example.com');
    expect((await client.post('/api/user/account-info', { email: '' })).body.email).toBeNull();
  });

  it('keeps notification settings, defaulting to email, project updates and security alerts on', async () => {
    const { client } = await signUp();
    expect((await client.get('/api/notifications/settings')).body).toEqual({
      emailNotifications: true,
      projectUpdates: true,
      securityAlerts: true,
      marketingEmails: false,
    });
    expect((await client.post('/api/notifications/settings', { emailNotifications: 'yes' })).status).toBe(400);
    const next = { emailNotifications: false, projectUpdates: true, securityAlerts: true, marketingEmails: true };
    expect((await client.post('/api/notifications/settings', next)).body).toEqual(next);
    expect((await client.get('/api/notifications/settings')).body).toEqual(next);
  });
});

describe('password change', () => {
  it('needs the current password, ends every other session of the user, and keeps this one', async () => {
    const { client, username } = await signUp('pw');
    const laptop = new Client(backend.url);
    expect((await laptop.post('/api/login', { username, password: 'secret-pass-1' })).status).toBe(200);

    const empty = await client.post('/api/user/change-password', { newPassword: 'x' });
    expect(empty.body.fieldErrors).toEqual({
      currentPassword: ['Current password is required'],
      newPassword: ['Password must be at least 6 characters'],
    });
    const wrong = await client.post('/api/user/change-password', { oldPassword: 'not-it', newPassword: 'brand-new-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors).toEqual({ currentPassword: ['Current password is incorrect'] });
    expect((await laptop.get('/api/user')).status).toBe(200);

    const changed = await client.post('/api/user/change-password', {
      oldPassword: 'secret-pass-1',
      newPassword: 'brand-new-1',
    });
    expect(changed.status).toBe(200);
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await laptop.get('/api/user')).status).toBe(401);
    expect((await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' })).status).toBe(
      401,
    );
    expect((await new Client(backend.url).post('/api/login', { username, password: 'brand-new-1' })).status).toBe(200);
    expect(
      (await new Client(backend.url).post('/api/user/change-password', { oldPassword: 'a', newPassword: 'bbbbbb' }))
        .status,
    ).toBe(401);
  });
});

describe('admin messages and contact admin', () => {
  it('shows users the active, unexpired messages admins post', async () => {
    const { client } = await signUp('reader');
    const admin = new Client(backend.url);
    expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    expect((await client.post('/api/admin/comments', { message: 'Not allowed' })).status).toBe(403);
    expect((await admin.post('/api/admin/comments', { message: '  ' })).body.fieldErrors).toEqual({
      message: ['Message is required'],
    });
    expect((await admin.post('/api/admin/comments', { message: 'x', priority: 'meh' })).status).toBe(400);

    const maintenance = await admin.post('/api/admin/comments', { message: 'Maintenance on Sunday', priority: 'high' });
    expect(maintenance.status).toBe(201);
    await admin.post('/api/admin/comments', {
      message: 'Long gone',
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await admin.post('/api/admin/comments', { message: 'Welcome to Shiplog' });
    await admin.get('/api/admin/comments');

    const seen = await client.get('/api/admin/comments');
    expect(seen.status).toBe(200);
    const mine = seen.body.filter((c: { message: string }) =>
      ['Maintenance on Sunday', 'Long gone', 'Welcome to Shiplog'].includes(c.message),
    );
    expect(mine).toEqual([
      {
        id: expect.any(String),
        message: 'Welcome to Shiplog',
        priority: 'normal',
        createdAt: expect.any(String),
        adminUsername: 'admin',
      },
      {
        id: maintenance.body.id,
        message: 'Maintenance on Sunday',
        priority: 'high',
        createdAt: expect.any(String),
        adminUsername: 'admin',
      },
    ]);
    expect((await new Client(backend.url).get('/api/admin/comments')).status).toBe(401);
  });

  it('stores a contact message when subject and message are both non-blank', async () => {
    const { client, username } = await signUp('contact');
    expect((await client.post('/api/contact-admin', { subject: ' ', message: 'Hi' })).body.fieldErrors).toEqual({
      subject: ['Subject is required'],
    });
    expect((await client.post('/api/contact-admin', { subject: 'Hi', message: '' })).body.fieldErrors).toEqual({
      message: ['Message is required'],
    });
    const sent = await client.post('/api/contact-admin', { subject: 'Billing question', message: 'Can I pay yearly?' });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toBe('Your message has been sent to the admin successfully.');
    const { pool } = backend.service('identity').context;
    await expect
      .poll(
        async () =>
          (
            await pool.query('SELECT username, subject, message FROM identity.contact_messages WHERE id = $1', [
              sent.body.id,
            ])
          ).rows,
      )
      .toEqual([{ username, subject: 'Billing question', message: 'Can I pay yearly?' }]);
  });
});

describe('registration', () => {
  it('frees a name claimed by no account once the claim is a minute old (a sign-up killed half-way)', async () => {
    const username = uniqueUsername('orphan');
    const { store } = backend.service('identity').context;
    // What a registration leaves when its process dies between its two appends: the claim alone.
    await store.append(
      usernameStream(username),
      [
        {
          id: newId(),
          type: 'UsernameClaimed',
          data: { username, userId: newId() },
          metadata: { userId: null, correlationId: newId(), causationId: null, schemaVersion: 1 },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const client = new Client(backend.url);
    const body = { username, password: 'secret-pass-1' };
    // Young, it may be a registration still under way: the name is taken.
    expect((await client.post('/api/register', body)).status).toBe(409);
    await backend.pool.query(
      `UPDATE identity.events SET occurred_at = now() - make_interval(secs => $2) WHERE stream_id = $1`,
      [usernameStream(username), ORPHANED_CLAIM_MS / 1000 + 1],
    );
    const registered = await client.post('/api/register', body);
    expect(registered.status).toBe(201);
    expect((await new Client(backend.url).post('/api/login', body)).status).toBe(200);
    // A claim with its account behind it is never released, however old.
    await backend.pool.query(`UPDATE identity.events SET occurred_at = now() - interval '1 day' WHERE stream_id = $1`, [
      usernameStream(username),
    ]);
    expect((await new Client(backend.url).post('/api/register', body)).status).toBe(409);
  });
});
