import { describe, expect, it } from 'vitest';
import { TokenCache } from './token-cache.ts';

const grant = { name: 'CI', scope: 'write' as const, workspaceId: null };
const ada = { tokenId: 't1', ...grant, user: { id: 'ada', username: 'ada', isAdmin: false } };
const bob = { tokenId: 't2', ...grant, user: { id: 'bob', username: 'bob', isAdmin: false } };

describe('the API token cache', () => {
  it('holds a verified token for its time to live, and a forgotten user’s tokens not at all', () => {
    let now = 0;
    const cache = new TokenCache({ ttlMs: 10_000, maxEntries: 10, now: () => now });
    cache.remember('ada-token', ada, cache.generation);
    cache.remember('bob-token', bob, cache.generation);
    expect(cache.get('ada-token')).toEqual(ada);
    now = 9_999;
    expect(cache.get('ada-token')).toEqual(ada);
    now = 10_000;
    expect(cache.get('ada-token')).toBeUndefined();
    cache.forgetUser('bob');
    expect(cache.get('bob-token')).toBeUndefined();
  });

  it('does not keep a check that was on its way while its user was forgotten', () => {
    const cache = new TokenCache({ ttlMs: 10_000, maxEntries: 10 });
    const before = cache.generation;
    cache.forgetUser('ada'); // the revocation lands while identity is answering
    cache.remember('ada-token', ada, before);
    expect(cache.get('ada-token')).toBeUndefined();
  });

  it('keeps at most its number of entries, dropping the oldest, and nothing with a time to live of 0', () => {
    const cache = new TokenCache({ ttlMs: 10_000, maxEntries: 1 });
    cache.remember('ada-token', ada, cache.generation);
    cache.remember('bob-token', bob, cache.generation);
    expect(cache.get('ada-token')).toBeUndefined();
    expect(cache.get('bob-token')).toEqual(bob);
    const off = new TokenCache({ ttlMs: 0, maxEntries: 10 });
    off.remember('ada-token', ada, off.generation);
    expect(off.get('ada-token')).toBeUndefined();
  });
});
