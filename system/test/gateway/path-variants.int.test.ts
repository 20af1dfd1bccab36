import { request } from 'node:http';
import { fill } from '@shiplog/gateway/routes';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every call of the `/api` surface, spelt every other way a path can be spelt: with a trailing or a
 * doubled slash, a dot segment, an encoded slash or letter, a letter in upper case. Only the canonical
 * path has a route: each variant is a 404, with a session and with an API token alike, on both
 * serving paths (or, for a token, the refusal of a route that takes none); what the canonical call
 * would refuse (a token making a project's deploy webhook URL) is not done by a variant either.
 */
let backend: Backend;
let owner: Client;
let token: string;
let projectId: string;

beforeAll(async () => {
  backend = await startBackend();
  owner = new Client(backend.url);
  expect(
    (await owner.post('/api/register', { username: uniqueUsername('paths'), password: 'secret-pass-1' })).status,
  ).toBe(201);
  const project = await owner.post('/api/projects', { name: 'Canonical' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  const created = await owner.post('/api/tokens', { name: 'CI' });
  expect(created.status).toBe(201);
  token = created.body.token;
});
afterAll(async () => {
  await backend?.stop();
});

/** The path's last segment that is not a value (`deploy-hook` of `/api/projects/:id/deploy-hook`). */
function lastLiteral(template: string): number {
  const segments = template.split('/');
  for (let i = segments.length - 1; i > 1; i -= 1) if (!segments[i]!.startsWith(':')) return i;
  return 2;
}

/** The ways of spelling `path` (filled from `template`) that are not its canonical form. */
function variantsOf(template: string, path: string): string[] {
  const segments = path.split('/');
  const at = lastLiteral(template);
  const literal = segments[at]!;
  const withSegment = (value: string) => segments.map((s, i) => (i === at ? value : s)).join('/');
  // The slash after `/api` stays: a path that does not start `/api/` is a page of the web app.
  const last = path.lastIndexOf('/');
  const tail = path.slice(last + 1);
  const around = (separator: string) =>
    last === 4 ? `/api/${separator.replace(/^\//, '')}${tail}` : `${path.slice(0, last)}${separator}${tail}`;
  const upper = literal.toUpperCase() === literal ? literal.toLowerCase() : literal.toUpperCase();
  const code = literal.charCodeAt(0).toString(16).toUpperCase();
  return [
    `${path}/`,
    ...['//', '%2F', '%2f', '/./', '/zz/../', '/%2E/', '\\'].map(around),
    withSegment(upper),
    withSegment(`%${code}${literal.slice(1)}`),
    `${path}#`,
  ];
}

/** One request as sent, byte for byte: fetch would tidy the path before it left. */
function raw(method: string, path: string, headers: Record<string, string>) {
  const url = new URL(backend.url);
  const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
  return new Promise<{ status: number; body: { code?: string } | null }>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': '2' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: { code?: string } | null = null;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a path that is not canonical', () => {
  it('has no route: every variant of every call is a 404, with a session and with an API token', async () => {
    const { calls } = backend.apiSurface();
    const credentials = {
      session: { cookie: owner.cookie! },
      token: { authorization: `Bearer ${token}` },
    };
    const passed: string[] = [];
    let sent = 0;
    for (const call of calls) {
      const path = fill(call.path, { id: projectId, projectId });
      for (const variant of variantsOf(call.path, path))
        for (const [as, headers] of Object.entries(credentials)) {
          const answer = await raw(call.method, variant, headers);
          sent += 1;
          const refused = answer.status === 404 || (as === 'token' && answer.body?.code === 'API_TOKEN_NOT_ACCEPTED');
          if (!refused || !answer.body?.code)
            passed.push(`${as} ${call.method} ${variant} → ${answer.status} ${answer.body?.code ?? ''}`);
        }
    }
    expect(passed).toEqual([]);
    expect(sent).toBeGreaterThan(calls.length * 20);
  });

  it('does not let a token make a deploy webhook URL by another spelling', async () => {
    const hook = `/api/projects/${projectId}/deploy-hook`;
    const bearer = { authorization: `Bearer ${token}` };
    expect((await raw('POST', hook, bearer)).body?.code).toBe('API_TOKEN_NOT_ACCEPTED');
    for (const variant of [`${hook}/`, hook.replace('deploy-hook', 'DEPLOY-HOOK'), hook.replace('/deploy', '//deploy')])
      expect((await raw('POST', variant, bearer)).status).toBe(404);
    expect((await owner.get(hook)).body).toMatchObject({ active: false });
  });
});
