/**
 * API tokens: `GET /api/projects` (20 projects) as a CI job makes it, with `Authorization: Bearer`,
 * beside the same read with the session cookie, and the token read again with the gateway's token
 * cache off (`API_TOKEN_CACHE_SECONDS=0`: identity asked at every call, as before the cache). Each
 * setting is the app as `npm start` runs it; the CPU per request shows where the saving is.
 */
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { load, signUp, startBenchApp, stop } from './app.ts';

type LoadResult = Awaited<ReturnType<typeof load>>;

export interface TokensResult {
  session: LoadResult;
  tokenCached: LoadResult;
  tokenUncached: LoadResult;
  /** Cached over uncached, throughput. */
  cachedSpeedup: number;
}

async function measure(cacheSeconds: string) {
  const db = await createTestDatabase('bench_tokens');
  const ns = createTestBusNamespace('bench_tokens');
  const port = await freePort();
  const app = await startBenchApp(db.url, ns.namespace, port, { API_TOKEN_CACHE_SECONDS: cacheSeconds });
  const url = `http://127.0.0.1:${port}`;
  try {
    const user = await signUp(url, `ci${Date.now().toString(36)}`);
    const asUser = { cookie: user.cookie, 'content-type': 'application/json' };
    for (let i = 0; i < 20; i++) {
      const made = await fetch(`${url}/api/projects`, {
        method: 'POST',
        headers: asUser,
        body: JSON.stringify({ name: `Project ${i}`, description: 'A project with a description of ordinary length.' }),
      });
      if (made.status !== 201) throw new Error(`create answered ${made.status}`);
    }
    const minted = await fetch(`${url}/api/tokens`, {
      method: 'POST',
      headers: asUser,
      body: JSON.stringify({ name: 'bench' }),
    });
    if (minted.status !== 201) throw new Error(`token answered ${minted.status}`);
    const { token } = (await minted.json()) as { token: string };
    const targets = {
      session: { url: `${url}/api/projects`, headers: { cookie: user.cookie } },
      token: { url: `${url}/api/projects`, headers: { authorization: `Bearer ${token}` } },
    };
    // Warm both (JIT tiers, pools), then measure.
    for (const target of Object.values(targets)) await load({ ...target, duration: 5 });
    return { session: await load(targets.session), token: await load(targets.token) };
  } finally {
    await stop(app);
    await ns.drop();
    await db.drop();
  }
}

export async function runTokens(): Promise<TokensResult> {
  const cached = await measure('10');
  const uncached = await measure('0');
  return {
    session: cached.session,
    tokenCached: cached.token,
    tokenUncached: uncached.token,
    cachedSpeedup: Math.round((cached.token.requestsPerSecond / uncached.token.requestsPerSecond) * 100) / 100,
  };
}
