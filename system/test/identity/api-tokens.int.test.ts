import { newId } from '@shiplog/events';
import { userStream } from '@shiplog/identity/user';
import { hashTokenText, newTokenText } from '@shiplog/identity/user/api-token';
import { userDecider } from '@shiplog/identity/user/decide';
import { handleCommand } from '@shiplog/service-kit';
import { type Backend, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** API tokens' lifetimes: chosen at creation, shown in the list, enforced at every use. */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const DAY_MS = 86_400_000;
const withToken = (token: string) =>
  fetch(`${backend.url}/api/projects`, { headers: { authorization: `Bearer ${token}` } });

describe('API token lifetimes', () => {
  it('expire after 90 days unless another lifetime is chosen, and say so in the list', async () => {
    const { client } = await backend.signUp('life');
    const made = [];
    for (const [i, expiresInDays] of [undefined, 30, 365, null, 'never', '30'].entries())
      made.push(
        (
          await client.post('/api/tokens', {
            name: `t${i}`,
            ...(expiresInDays === undefined ? {} : { expiresInDays }),
          })
        ).body,
      );
    const days = made.map((t) =>
      t.expiresAt === null ? null : Math.round((Date.parse(t.expiresAt) - Date.now()) / DAY_MS),
    );
    expect(days).toEqual([90, 30, 365, null, null, 30]);
    const listed = (await client.get('/api/tokens')).body as { name: string; expiresAt: string | null }[];
    expect(listed.find((t) => t.name === 't1')?.expiresAt).toBe(made[1].expiresAt);
    for (const bad of [7, 0, 'forever', true]) {
      const refused = await client.post('/api/tokens', { name: 'bad', expiresInDays: bad });
      expect(refused.status, String(bad)).toBe(400);
      expect(refused.body.fieldErrors).toEqual({ expiresInDays: ['Expiry must be 30, 90 or 365 days, or never'] });
    }
  });

  it('refuses an expired token at its next use', async () => {
    const { id } = await backend.signUp('expired');
    // A token made 31 days ago for 30 days, as the clock would have made it.
    const tokenId = newId();
    const text = newTokenText(id, tokenId);
    await handleCommand(
      backend.service('identity').context.store,
      userStream(id),
      userDecider,
      {
        type: 'CreateApiToken',
        tokenId,
        name: 'old',
        tokenHash: hashTokenText(text),
        expiresInDays: 30,
        scope: 'write',
        workspaceId: null,
      },
      { userId: id, correlationId: newId(), now: new Date(Date.now() - 31 * DAY_MS) },
    );
    const refused = await withToken(text);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^This API token expired on \d{4}-\d{2}-\d{2}/,
    );
  });

  it('are all revoked by a password change', async () => {
    const { client } = await backend.signUp('rotate');
    const { token } = (await client.post('/api/tokens', { name: 'ci' })).body;
    expect((await withToken(token)).status).toBe(200);
    const changed = await client.post('/api/user/change-password', {
      currentPassword: 'secret-pass-1',
      newPassword: 'another-pass-2',
    });
    expect(changed.status).toBe(200);
    expect((await withToken(token)).status).toBe(401);
    expect((await client.get('/api/tokens')).body).toEqual([]);
    // The session that changed it goes on; a new token works.
    const fresh = (await client.post('/api/tokens', { name: 'ci again' })).body;
    expect((await withToken(fresh.token)).status).toBe(200);
  });
});
