import { type Backend, type Client, startBackend } from '@shiplog/system';
import { redisUrl } from '@shiplog/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Sensitive changes need the password typed in this session within ten minutes (ASVS 3.7.1): a stolen
 * session cookie alone cannot delete the account, move its email, make an API token or a deploy
 * webhook. A session is aged by moving its sign-in back in Redis, as ten minutes passing would.
 */
let backend: Backend;
let redis: RedisClientType;

beforeAll(async () => {
  backend = await startBackend();
  redis = createClient({ url: redisUrl });
  await redis.connect();
});
afterAll(async () => {
  await redis?.quit();
  await backend?.stop();
});

/** Moves the session's sign-in (and any password confirmation) `minutes` into the past. */
async function age(client: Client, minutes: number) {
  const sid = /^s:([^.]+)\./.exec(decodeURIComponent(client.sessionCookie!.slice('shiplog.sid='.length)))![1];
  const key = `${backend.busNamespace}:sess:${sid}`;
  const session = JSON.parse((await redis.get(key))!);
  const shift = minutes * 60_000;
  session.since -= shift;
  if (session.verifiedAt) session.verifiedAt -= shift;
  await redis.set(key, JSON.stringify(session), { KEEPTTL: true });
}

const sensitive = (projectId: string) =>
  [
    ['DELETE', '/api/user', undefined],
    ['POST', '/api/user/account-info', { email: 'moved@example.com' }],
    ['POST', '/api/tokens', { name: 'stolen' }],
    ['POST', `/api/projects/${projectId}/deploy-hook`, undefined],
  ] as const;

describe('recent authentication for sensitive changes', () => {
  it('lets a user who has just signed in make them, as the spec calls them', async () => {
    const { client } = await backend.signUp('fresh');
    const project = (await client.post('/api/projects', { name: 'Fresh' })).body;
    expect((await client.post('/api/user/account-info', { email: 'fresh@example.com' })).status).toBe(200);
    expect((await client.post('/api/tokens', { name: 'ci' })).status).toBe(201);
    expect((await client.post(`/api/projects/${project.id}/deploy-hook`)).status).toBe(201);
    expect((await client.request('DELETE', '/api/user')).status).toBe(200);
  });

  it('refuses them 11 minutes after sign-in with 403 REAUTH_REQUIRED, and allows them once the password is typed again', async () => {
    const { client } = await backend.signUp('stale');
    const project = (await client.post('/api/projects', { name: 'Stale' })).body;
    await age(client, 11);
    for (const [method, path, body] of sensitive(project.id)) {
      const refused = await client.request(method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body).toEqual({
        message: 'Please enter your password again to continue.',
        code: 'REAUTH_REQUIRED',
      });
    }
    // Everything else goes on as before; nothing was changed.
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await client.get('/api/tokens')).body).toEqual([]);
    expect((await client.post('/api/projects', { name: 'Still fine' })).status).toBe(201);

    const wrong = await client.post('/api/reauth', { password: 'not-my-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors).toEqual({ password: ['Password is incorrect'] });
    const blank = await client.post('/api/reauth', {});
    expect(blank.status).toBe(400);
    expect(blank.body.fieldErrors).toEqual({ password: ['Password is required'] });

    expect((await client.post('/api/reauth', { password: 'secret-pass-1' })).status).toBe(200);
    expect((await client.post('/api/tokens', { name: 'ci' })).status).toBe(201);
    expect((await client.post(`/api/projects/${project.id}/deploy-hook`)).status).toBe(201);
    // Ten minutes after the confirmation, it is asked for again.
    await age(client, 11);
    expect((await client.request('DELETE', '/api/user')).status).toBe(403);
    expect((await client.post('/api/reauth', { password: 'secret-pass-1' })).status).toBe(200);
    expect((await client.request('DELETE', '/api/user')).status).toBe(200);
  });

  it('throttles password guesses at reauthentication and at a password change, as at sign-in', async () => {
    const { client } = await backend.signUp('guess');
    await age(client, 11);
    const guesses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answer =
        i % 2 === 0
          ? await client.post('/api/reauth', { password: `guess-${i}` })
          : await client.post('/api/user/change-password', {
              currentPassword: `guess-${i}`,
              newPassword: 'new-pass-123',
            });
      guesses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.body.code).toBe('RATE_LIMITED');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        break;
      }
    }
    expect(guesses.at(-1)).toBe(429);
    expect(guesses.slice(0, -1).every((status) => status === 400)).toBe(true);
    // Even the right password waits now.
    expect((await client.post('/api/reauth', { password: 'secret-pass-1' })).status).toBe(429);
  });
});
