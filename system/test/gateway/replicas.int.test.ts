/**
 * Two gateway replicas over one Redis, as behind a load balancer (deploy/k8s runs two): a write on one
 * and a read on the other. Read-your-writes must hold across them (the positions travel with the
 * client, gateway/src/session/positions.ts), and a session ended on one must stop working on the other within
 * moments although the read path keeps sessions in memory (Redis-assisted client-side caching).
 */

import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
let replicaUrl: string;

beforeAll(async () => {
  backend = await startBackend();
  replicaUrl = await backend.startReplica();
});
afterAll(async () => {
  await backend?.stop();
});

/** A client on replica A, and the same browser (its cookies) on replica B. */
async function signedInOnBoth(prefix: string) {
  const a = new Client(backend.url);
  const username = uniqueUsername(prefix);
  expect((await a.post('/api/register', { username, password: 'secret-pass-1' })).status).toBe(201);
  const b = new Client(replicaUrl);
  b.cookie = a.cookie;
  return { a, b, username };
}

describe('two gateway replicas', () => {
  it('a read on one replica includes a write just made on the other, even while the projector lags', async () => {
    const { a, b } = await signedInOnBoth('ryw');
    // Hold the timeline projector (its batch lock) so the new row cannot appear on its own.
    const held = await backend.holdConsumer('activity', 'activity-timeline');
    try {
      const created = await a.post('/api/projects', { name: 'Across replicas' });
      expect(created.status).toBe(201);
      b.cookie = a.cookie;
      // Without the positions (the session cookie alone) the read does not wait: the row is not there yet.
      const withoutPositions = await new Client(replicaUrl).get('/api/activities', { cookie: a.sessionCookie! });
      expect(withoutPositions.status).toBe(200);
      expect(withoutPositions.body).toHaveLength(0);
      // With them, replica B's read waits for the projector, which is let go once it does.
      const read = b.get('/api/activities');
      await held.untilReadWaits();
      await held.release();
      const answered = await read;
      expect(answered.status).toBe(200);
      expect(answered.body.map((row: { details: string }) => row.details)).toEqual([
        'Created project: Across replicas',
      ]);
    } finally {
      await held.release();
    }
  });

  it('a read waits for the newest position the web app sends, though its cookie holds an older one', async () => {
    const { a } = await signedInOnBoth('order');
    const first = await a.post('/api/projects', { name: 'First' });
    expect(first.status).toBe(201);
    // The browser's cookie after two writes to one service answered out of order: the first's.
    const firstCookie = a.cookie!;
    expect((await a.get('/api/activities')).body).toHaveLength(1);
    const held = await backend.holdConsumer('activity', 'activity-timeline');
    try {
      const second = await a.post('/api/projects', { name: 'Second' });
      expect(second.status).toBe(201);
      // The web app keeps the second's position, as its answer named it (web/src/lib/positions.ts).
      const newest = second.headers.get('x-shiplog-positions');
      expect(newest).toMatch(/^projects=\d+\/\d+\.[^,=]+$/);
      // The first's cookie alone: its write is in the timeline, so the read does not wait, and misses the second.
      const withCookie = await new Client(replicaUrl).get('/api/activities', { cookie: firstCookie });
      expect(withCookie.body).toHaveLength(1);
      // With the header, on either replica, the read waits for the second.
      const read = new Client(replicaUrl).get('/api/activities', {
        cookie: firstCookie,
        'x-shiplog-positions': newest!,
      });
      await held.untilReadWaits();
      await held.release();
      const answered = await read;
      expect(answered.body.map((row: { details: string }) => row.details)).toEqual([
        'Created project: Second',
        'Created project: First',
      ]);
    } finally {
      await held.release();
    }
  });

  it('ignores a positions header it did not sign', async () => {
    const { a } = await signedInOnBoth('forgedheader');
    const started = Date.now();
    const response = await new Client(replicaUrl).get('/api/activities', {
      cookie: a.sessionCookie!,
      'x-shiplog-positions': 'activity=99999999/99999999.forged,projects=99999999/99999999',
    });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  // Replica B holds the session in its client-side cache; Redis's invalidation push reaches it a
  // moment after the sign-out's DEL (pushes and replies go out on different connections, so under
  // load the push can trail A's answer by a few milliseconds). Hence "within moments", polled.
  const endsWithinMoments = (read: () => Promise<{ status: number }>) =>
    expect.poll(async () => (await read()).status, { timeout: 1000, interval: 5 }).toBe(401);

  it('a sign-out on one replica ends the session on the other within moments', async () => {
    const { a, b } = await signedInOnBoth('logout');
    const cookie = a.cookie!;
    // Replica B has read (and cached) the session.
    expect((await b.get('/api/projects')).status).toBe(200);
    expect((await a.post('/api/logout')).status).toBe(200);
    await endsWithinMoments(() => new Client(replicaUrl).get('/api/projects', { cookie }));
    const replay = await new Client(replicaUrl).get('/api/projects', { cookie });
    expect(replay.body).toEqual({ message: 'Not signed in', code: 'UNAUTHORIZED' });
  });

  it('a password change on one replica ends the user’s other sessions on the other', async () => {
    const { a, username } = await signedInOnBoth('password');
    const other = new Client(replicaUrl);
    expect((await other.post('/api/login', { username, password: 'secret-pass-1' })).status).toBe(200);
    expect((await other.get('/api/projects')).status).toBe(200);
    const changed = await a.post('/api/user/change-password', {
      currentPassword: 'secret-pass-1',
      newPassword: 'secret-pass-2',
    });
    expect(changed.status).toBe(200);
    await endsWithinMoments(() => other.get('/api/projects'));
    // The session that changed the password goes on, on either replica.
    const b = new Client(replicaUrl);
    b.cookie = a.cookie;
    expect((await b.get('/api/projects')).status).toBe(200);
  });

  it('ignores a position cookie it did not sign', async () => {
    const { a } = await signedInOnBoth('forged');
    const forged = `${a.sessionCookie}; shiplog.after.activity=99999999%2F99999999.forged`;
    const started = Date.now();
    const response = await new Client(replicaUrl).get('/api/activities', { cookie: forged });
    expect(response.status).toBe(200);
    // Honoured, it would make the activity service wait out its 2 s read-your-writes timeout.
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
