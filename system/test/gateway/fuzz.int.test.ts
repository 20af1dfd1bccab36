import { Agent, request } from 'node:http';
import { fill } from '@shiplog/gateway/routes';
import { type ApiCall, type Backend, Client, startBackend } from '@shiplog/system';
import { type OpenAIStandIn, startOpenAIStandIn } from '@shiplog/testing/openai';
import { type StripeStandIn, startStripeStandIn } from '@shiplog/testing/stripe';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Bad input gets a 4xx with the fixed error body, never a 5xx, and the gateway stays up: a seeded
 * property-based fuzzer over every call of the `/api` surface (generated from the route table, see
 * api-surface.ts), signed in, signed out and as the administrator. `FUZZ_SEED` and `FUZZ_RUNS`
 * reproduce or lengthen a run; the seed is printed with the counts.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
const ADMIN_PASSWORD = 'admin-secret-1';

let backend: Backend;
let stripe: StripeStandIn;
let model: OpenAIStandIn;
let surface: ApiCall[];
let user: { client: Client; id: string };
let admin: Client;
let projectId: string;
let reminderId: string;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

beforeAll(async () => {
  // Every part configured as in production: Stripe and the model are the project's stand-ins.
  stripe = await startStripeStandIn();
  model = await startOpenAIStandIn();
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD, env: { ...stripe.env, ...model.env } });
  surface = backend.apiSurface().calls;
  user = await backend.signUp('fuzz');
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
  projectId = (await user.client.post('/api/projects', { name: 'Fuzzed' })).body.id;
  reminderId = (
    await user.client.post('/api/reminders', {
      projectId,
      title: 'Fuzzed reminder',
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    })
  ).body.id;
}, 60_000);
afterAll(async () => {
  agent.destroy();
  await backend?.stop();
  await stripe?.stop();
  await model?.stop();
});

// ── What goes in ─────────────────────────────────────────────────────────────────────────────────

/** Every field name the calls read, so that generated bodies reach the validators, not only the parser. */
const fields = [
  ...['name', 'description', 'status', 'costEstimate', 'replitId', 'isPublic', 'checklist', 'metadata'],
  ...['title', 'dueDate', 'projectId', 'reminderTimes', 'isCompleted', 'version', 'notes', 'changes'],
  ...['environment', 'url', 'message', 'priority', 'isActive', 'subject', 'email', 'phoneNumber'],
  ...['username', 'password', 'oldPassword', 'newPassword', 'confirmPassword', 'days', 'subscriptionStatus'],
  ...['priceId', 'mode', 'conversationHistory', 'siteName', 'apiKey', 'baseUrl', 'projectIds'],
  ...['renewalReminders', 'reminderDaysBefore', 'emailNotifications', 'displayName', 'bio', 'handled'],
  ...['query', 'variables', 'eventType', 'action', 'details', 'backupDetails', 'deploymentDetails'],
  ...['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'],
];

const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202eevil\u202c',
    '\u200f\u200e',
    '\ufeff',
    '𝕏𝔂',
    'e\u0301'.repeat(50),
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '1e309',
    '-0',
    'NaN',
    'Infinity',
    '2026-02-30',
    '-010000-01-01T00:00:00.000Z',
    '275760-09-13T00:00:00.001Z',
    'javascript:alert(1)',
    'http://127.0.0.1:1/',
    '__proto__',
    'sk_test_123',
    '00000000-0000-7000-8000-000000000000',
    // The user's real project, so that only the rest of a body is wrong (see `send`).
    'PROJECT_ID',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => s.repeat(500)),
  fc.constant('x'.repeat(120_000)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, true, false, null),
    fc.double(),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.constantFrom(...fields), tie('value'), { maxKeys: 4 }),
    fc.array(fc.constant('x'), { minLength: 2000, maxLength: 2000 }),
  ),
})).value;

/** The body's bytes: JSON of hostile fields, raw tokens JSON.stringify cannot write, and broken text. */
const body: fc.Arbitrary<Buffer | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom(...fields), hostileValue, { maxKeys: 8 }).map((o) => Buffer.from(JSON.stringify(o))),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc
    .tuple(
      fc.constantFrom(...fields),
      fc.constantFrom('1e309', '-1e309', '-0', 'NaN', 'Infinity', '1e-400', '123456789012345678901234567890', '0x10'),
    )
    .map(([field, token]) => Buffer.from(`{"${field}":${token}}`)),
  fc
    .tuple(fc.constantFrom(...fields), fc.constantFrom(50, 2000, 20_000))
    .map(([field, depth]) => Buffer.from(`{"${field}":${'['.repeat(depth)}${']'.repeat(depth)}}`)),
  fc.constant(Buffer.from('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":true}}}')),
  // Text PostgreSQL cannot hold (a NUL, half a surrogate pair) in every text field at once, the rest valid.
  fc
    .constantFrom('\\u0000', '\\ud800')
    .map((bad) =>
      Buffer.from(
        `{"name":"a${bad}b","description":"${bad}","title":"Odd ${bad}","notes":"n ${bad}","version":"1.0${bad}",` +
          `"message":"Hello ${bad}","subject":"Hi ${bad}","email":"a${bad}@example.com","displayName":"${bad}",` +
          `"bio":"${bad}","username":"n${bad}ul","password":"secret-pass-1","projectId":"PROJECT_ID",` +
          `"dueDate":"2030-01-01T00:00:00.000Z","siteName":"S${bad}te","apiKey":"key${bad}12345678"}`,
      ),
    ),
  fc
    .tuple(fc.dictionary(fc.constantFrom(...fields), hostileValue, { minKeys: 1, maxKeys: 4 }), fc.nat())
    .map(([o, cut]) => {
      const text = JSON.stringify(o);
      return Buffer.from(text.slice(0, cut % text.length));
    }),
  fc.constantFrom(
    Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
    Buffer.from(''),
    Buffer.from('null'),
    Buffer.from('[]'),
    Buffer.from('"text"'),
    Buffer.from('name=x&password=y'),
    Buffer.from(`{"changes":[${'"x",'.repeat(40_000)}"x"]}`),
  ),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'a/b/c;;;',
  undefined,
);

/** What a path's `:id` becomes: real ids, other ids, and segments that are no id at all. */
const segment = fc.oneof(
  fc.constantFrom('PROJECT', 'REMINDER', 'USER'),
  fc.constantFrom(
    '00000000-0000-7000-8000-000000000000',
    'nope',
    '%00',
    '%ff',
    '%2e%2e',
    '..%2f..%2f',
    'null',
    '%F0%9F%92%A9',
    'x'.repeat(3000),
    'x.ics',
    `${'A'.repeat(32)}.ics`,
    '-1',
    '1e309',
  ),
  fc
    .string({ unit: 'binary', maxLength: 20 })
    .map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x')) || 'e'),
);

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?page=-1&limit=1e309',
    '?page=99999999999999999999&limit=abc',
    '?page[]=1&page[]=2',
    '?__proto__[isAdmin]=true',
    '?%ff=%fe',
    '?q=%00',
    `?q=${'x'.repeat(20_000)}`,
  ),
  fc
    .dictionary(fc.constantFrom('page', 'limit', 'q', 'sort', 'filter', 'status'), fc.string({ maxLength: 30 }))
    .map((o) => `?${new URLSearchParams(o as Record<string, string>)}`),
);

const extraHeaders = fc.oneof(
  fc.constant({}),
  fc.constantFrom(
    { 'x-filler': 'a'.repeat(20_000) },
    { accept: 'text/event-stream' },
    { 'x-forwarded-for': 'not-an-address, ::1, 999.1.1.1' },
    { 'idempotency-key': 'k'.repeat(5000) },
    { 'idempotency-key': '\u00ff\u00fe' },
    { 'content-encoding': 'gzip' },
    { 'transfer-encoding': 'chunked' },
  ),
);

const identity = fc.constantFrom('user', 'signed out', 'admin');

/** How the path is spelt: mostly as it is; else a form that is not canonical, which no route answers. */
const spelling = fc.oneof(
  { weight: 4, arbitrary: fc.constant((path: string) => path) },
  fc.constantFrom(
    (path: string) => `${path}/`,
    (path: string) => path.replace(/\/([^/]*)$/, '//$1'),
    (path: string) => path.replace(/\/([^/]*)$/, '/./$1'),
    (path: string) => path.replace(/\/([^/]*)$/, '/x/../$1'),
    (path: string) => path.replace(/^\/api\//, '/api/%2F'),
    (path: string) => path.replace(/^\/api\/(\w)/, (_, letter: string) => `/api/${letter.toUpperCase()}`),
    (path: string) => path.replace(/^\/api\/(\w)/, (_, letter: string) => `/api/%${letter.charCodeAt(0).toString(16)}`),
  ),
);

// ── Sending it ───────────────────────────────────────────────────────────────────────────────────

interface Answer {
  status: number;
  text: string;
  contentType: string | undefined;
}

function send(
  method: string,
  path: string,
  headers: Record<string, string | undefined>,
  payload: Buffer | undefined,
): Promise<Answer> {
  const url = new URL(backend.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent,
        headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >,
      },
      (res) => {
        // A live event stream that opened never ends: its status line is the answer.
        if (res.statusCode === 200 && res.headers['content-type']?.startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: 200, text: '', contentType: res.headers['content-type'] });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: res.headers['content-type'],
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error) =>
      reject(
        new Error(
          `${method} ${path.slice(0, 80)} ${JSON.stringify(headers).slice(0, 200)} ${payload?.length ?? 0} bytes: ${error.message}`,
        ),
      ),
    );
    req.end(payload);
  });
}

function cookieOf(who: string): string | undefined {
  if (who === 'user') return user.client.cookie;
  if (who === 'admin') return admin.cookie;
  return undefined;
}

/** The fixed error body (GraphQL answers in its own error shape), and nothing of the server's inside. */
function problemWith(call: ApiCall, answer: Answer): string | null {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (/\n\s+at .+:\d+:\d+|node_modules|\/work\/|file:\/\//.test(answer.text)) return 'leaks a stack trace or a path';
  if (answer.status < 400) return null;
  // GraphQL's own error shape, in its event stream when that is what the client accepts.
  if (call.path === '/api/graphql' && answer.contentType?.startsWith('text/event-stream'))
    return /^data: \{"errors":\[/m.test(answer.text) ? null : `answered ${answer.status}: ${answer.text.slice(0, 80)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return `answered ${answer.status} without a JSON body: ${answer.text.slice(0, 80)}`;
  }
  const body = parsed as { message?: unknown; code?: unknown; errors?: unknown };
  if (call.path === '/api/graphql' && Array.isArray(body.errors)) return null;
  if (typeof body.message !== 'string' || typeof body.code !== 'string')
    return `answered ${answer.status} without the error body: ${answer.text.slice(0, 80)}`;
  return null;
}

describe('the fuzzer', () => {
  it(`answers ${RUNS} generated bad inputs over every route without a server error`, async () => {
    const tally = { tried: 0, serverErrors: 0, by: new Map<number, number>() };
    const problems: string[] = [];
    const result = await fc.check(
      fc.asyncProperty(
        fc.constantFrom(...surface),
        identity,
        segment,
        query,
        body,
        contentType,
        extraHeaders,
        spelling,
        async (call, who, id, search, payload, type, headers, spell) => {
          const value = id === 'PROJECT' ? projectId : id === 'REMINDER' ? reminderId : id === 'USER' ? user.id : id;
          const canonical = fill(call.path, { id: value, projectId: value, userId: value, secret: value });
          const path = spell(canonical) + search;
          const answer = await send(
            call.method,
            path,
            { 'content-type': payload ? type : undefined, cookie: cookieOf(who), ...headers },
            call.method === 'GET' || call.method === 'HEAD'
              ? undefined
              : payload && Buffer.from(payload.toString('latin1').replaceAll('PROJECT_ID', projectId), 'latin1'),
          );
          tally.tried += 1;
          tally.by.set(answer.status, (tally.by.get(answer.status) ?? 0) + 1);
          if (answer.status >= 500) tally.serverErrors += 1;
          // A path that is not canonical is never answered, whatever else the case holds.
          const problem =
            spell(canonical) !== canonical && answer.status < 400
              ? `answered ${answer.status} to a path that is not canonical`
              : problemWith(call, answer);
          if (problem) problems.push(`${call.method} ${path.slice(0, 80)} as ${who}: ${problem}`);
          // A case may end a session (deleting the account, signing out): sign in again.
          if (answer.status < 300 && /^\/api\/(user|logout|admin\/users\/)/.test(call.path)) {
            if ((await user.client.get('/api/user')).status === 401) user = await backend.signUp('fuzz');
            if ((await admin.get('/api/user')).status === 401)
              await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD });
          }
          // Every case runs: the problems are gathered and reported together rather than shrunk.
          return true;
        },
      ),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 240_000 },
    );
    if (result.failed) problems.push(`the run stopped at case ${result.numRuns}: ${String(result.errorInstance)}`);
    process.stdout.write(
      `fuzz: seed ${SEED}, ${tally.tried} cases over ${surface.length} routes, ${tally.serverErrors} server errors; ` +
        `answers ${JSON.stringify(Object.fromEntries([...tally.by].sort(([a], [b]) => a - b)))}\n`,
    );
    expect(problems).toEqual([]);
    expect(tally.tried).toBeGreaterThanOrEqual(Math.min(RUNS, 1000));
    expect(tally.serverErrors).toBe(0);
  }, 300_000);

  it('keeps a connection usable after answering a call whose body it did not read', async () => {
    // Found by the fuzzer (seed 7): a service answers a body type it does not take without reading
    // it, and the connection's next request stalled behind the rest of that body.
    const { client } = await backend.signUp('connection');
    const one = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (path: string, type: string, size: number) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(backend.url);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path,
            agent: one,
            headers: { 'content-type': type, cookie: client.cookie! },
          },
          (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
        );
        req.on('error', reject);
        req.end(Buffer.alloc(size, 'x'));
      });
    try {
      expect(await post('/api/profile', 'application/x-www-form-urlencoded', 525_000)).toBe(400);
      expect(await post('/api/projects', 'text/plain', 2_000_000)).toBe(400);
      expect(await post('/api/projects', 'application/json', 10)).toBe(400);
    } finally {
      one.destroy();
    }
  });

  it('stays up, with every projection still flowing', async () => {
    expect((await fetch(`${backend.url}/readyz`)).status).toBe(200);
    // Each read waits (read-your-writes) for its projector to reach these writes; a projector stuck on
    // an event it could not write would never get there.
    const { client } = await backend.signUp('after-fuzz');
    const project = await client.post('/api/projects', { name: 'After the fuzzing' });
    expect(project.status).toBe(201);
    expect((await client.get('/api/projects')).body.map((p: { id: string }) => p.id)).toContain(project.body.id);
    const timeline = await client.get('/api/activities');
    expect(timeline.body.map((a: { projectId: string | null }) => a.projectId)).toContain(project.body.id);
    const reminder = await client.post('/api/reminders', {
      projectId: project.body.id,
      title: 'After the fuzzing',
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(reminder.status).toBe(201);
    expect((await client.get('/api/reminders')).body.map((r: { id: string }) => r.id)).toContain(reminder.body.id);
    const posted = await admin.post('/api/admin/comments', { message: 'After the fuzzing' });
    expect(posted.status).toBe(201);
    expect((await admin.get('/api/admin/comments')).body.map((c: { message: string }) => c.message)).toContain(
      'After the fuzzing',
    );
  });
});
