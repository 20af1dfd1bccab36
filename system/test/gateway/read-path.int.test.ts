/**
 * Calls to service-owned paths skip Express (gateway/src/serving/forward.ts): these pin down that the lean
 * path keeps every rule of the Express one — the session express-session wrote, its signature, the
 * owner's data only, query strings, HEAD, the error body, and for writes the Origin check and the
 * position cookie.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
let owner: Client;
let projectId: string;
/** The web app's page, with an inline script as the built one has (its theme, set before the first paint). */
const dist = mkdtempSync(join(tmpdir(), 'shiplog-web-'));
const inline = "document.documentElement.classList.add('dark')";
writeFileSync(
  join(dist, 'index.html'),
  `<!doctype html><html><head><title>Shiplog</title><script>${inline}</script></head><body></body></html>`,
);

beforeAll(async () => {
  backend = await startBackend({ env: { WEB_DIST: dist } });
  owner = new Client(backend.url);
  expect(
    (await owner.post('/api/register', { username: uniqueUsername('reader'), password: 'secret-pass-1' })).status,
  ).toBe(201);
  for (const name of ['First', 'Second', 'Third']) {
    const created = await owner.post('/api/projects', { name });
    expect(created.status).toBe(201);
    projectId = created.body.id;
  }
});
afterAll(async () => {
  await backend?.stop();
});

describe('the read path', () => {
  it('answers a signed-in read from the session express-session keeps, with the owner’s data', async () => {
    const list = await owner.get('/api/projects');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['Third', 'Second', 'First']);
    // No session change on a read: no cookie is set.
    expect(list.setCookie).toBeNull();
  });

  it('passes the query string on', async () => {
    const page = await owner.get('/api/activities?page=1&limit=1');
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(page.body[0].details).toBe('Created project: Third');
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await fetch(`${backend.url}/api/projects/${projectId}`, {
      method: 'HEAD',
      headers: { cookie: owner.sessionCookie! },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('refuses a cookie whose signature does not match, and an unsigned one, with the 401 error body', async () => {
    const [name, value] = owner.sessionCookie!.split('=');
    const tampered = `${name}=${value!.slice(0, -3)}${value!.endsWith('abc') ? 'xyz' : 'abc'}`;
    const sid = decodeURIComponent(value!).slice(2).split('.')[0];
    for (const cookie of [tampered, `${name}=${sid}`, `${name}=s%3A`, 'other=1']) {
      const response = await new Client(backend.url).get('/api/projects', { cookie });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Not signed in', code: 'UNAUTHORIZED' });
    }
  });

  it('another user reads only their own projects, and another’s project is a 404', async () => {
    const other = new Client(backend.url);
    await other.post('/api/register', { username: uniqueUsername('other'), password: 'secret-pass-1' });
    expect((await other.get('/api/projects')).body).toEqual([]);
    const foreign = await other.get(`/api/projects/${projectId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('PROJECT_NOT_FOUND');
  });

  it('stops answering a session once it is ended', async () => {
    const client = new Client(backend.url);
    await client.post('/api/register', { username: uniqueUsername('leaver'), password: 'secret-pass-1' });
    const cookie = client.cookie!;
    expect((await client.get('/api/projects')).status).toBe(200);
    expect((await client.post('/api/logout')).status).toBe(200);
    expect((await new Client(backend.url).get('/api/projects', { cookie })).status).toBe(401);
  });

  it('leaves paths it does not own to Express: the gateway’s own calls and unknown paths', async () => {
    expect((await owner.get('/api/user')).status).toBe(200);
    const unknown = await owner.get('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
  });
});

describe('security headers', () => {
  it('are on every answer, both paths, errors too; the web app page gets its own policy', async () => {
    const answers = {
      'lean read': await owner.get('/api/projects'),
      'lean 404': await owner.get('/api/projects/01a1fe8d-d184-7e73-81d1-1db832aee727'),
      'express call': await owner.get('/api/user'),
      'signed out': await new Client(backend.url).get('/api/projects'),
      write: await owner.post('/api/projects', { name: '' }),
      health: await owner.get('/healthz'),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
      expect(answer.headers.get('x-frame-options'), what).toBe('DENY');
      expect(answer.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
      expect(answer.headers.get('content-security-policy'), what).toBe("default-src 'none'; frame-ancestors 'none'");
      // http://localhost: no HSTS.
      expect(answer.headers.get('strict-transport-security'), what).toBeNull();
    }
    const page = await owner.get('/projects');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(
      `default-src 'self'; script-src 'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}';`,
    );
  });
});

describe('writes on the service path', () => {
  it('forwards a write with its body, and sets the position cookie only for the service written to', async () => {
    const created = await owner.post('/api/projects', { name: 'Fourth', description: 'Through the lean path' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Fourth', description: 'Through the lean path' });
    expect(created.setCookies).toHaveLength(1);
    expect(created.setCookies[0]).toMatch(
      /^shiplog\.after\.projects=\d+%2F\d+\.[^;]+; Path=\/api; HttpOnly; SameSite=Lax$/,
    );
    // A refused write reaches nothing, so it reports no position.
    const invalid = await owner.post('/api/projects', { name: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('Project name is required');
    expect(invalid.setCookies).toHaveLength(0);
  });

  it('streams any body to the service, which answers a bad one with a 400 and an oversized one with a 413', async () => {
    const send = (body: string) =>
      fetch(`${backend.url}/api/projects`, {
        method: 'POST',
        headers: { cookie: owner.cookie!, 'content-type': 'application/json' },
        body,
      });
    const broken = await send('{"name":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ message: 'The request body is not valid JSON', code: 'INVALID_JSON' });
    const huge = await send(JSON.stringify({ name: 'Huge', description: 'x'.repeat(2_000_000) }));
    expect(huge.status).toBe(413);
    expect((await huge.json()).code).toBe('PAYLOAD_TOO_LARGE');
    // Chunked, with no length given up front.
    const chunked = await fetch(`${backend.url}/api/projects`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, 'content-type': 'application/json' },
      body: new Blob([JSON.stringify({ name: 'Chunked' })]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(201);
    expect((await chunked.json()).name).toBe('Chunked');
  });

  it('marks the position cookie Secure behind an HTTPS proxy it trusts', async () => {
    const created = await owner.post('/api/projects', { name: 'Fifth' }, { 'x-forwarded-proto': 'https' });
    expect(created.status).toBe(201);
    expect(created.setCookies[0]).toMatch(/; Secure/);
  });

  it('refuses a write from another site, and one without a session', async () => {
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of foreign) {
      const refused = await owner.post('/api/projects', { name: 'Forged' }, headers);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: 'Requests from other sites are not allowed', code: 'FOREIGN_ORIGIN' });
    }
    expect((await owner.post('/api/projects', { name: 'Own page' }, { origin: backend.url })).status).toBe(201);
    const anonymous = await new Client(backend.url).post('/api/projects', { name: 'Nobody' });
    expect(anonymous.status).toBe(401);
    const names = (await owner.get('/api/projects')).body.map((p: { name: string }) => p.name);
    expect(names).not.toContain('Forged');
  });
});
