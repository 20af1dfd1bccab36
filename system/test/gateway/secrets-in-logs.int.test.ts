import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fill, secretPaths } from '@shiplog/gateway/routes';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { type DomainStandIn, startDomainStandIn } from '@shiplog/testing/domains';
import { type OpenAIStandIn, startOpenAIStandIn } from '@shiplog/testing/openai';
import { type OtlpStandIn, startOtlpStandIn } from '@shiplog/testing/otlp';
import { type StripeStandIn, startStripeStandIn } from '@shiplog/testing/stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * OWASP ASVS 7.1.1: no secret in the logs or the traces. The whole backend logs at its most detailed
 * level (`trace`, every request) into one file, and exports its spans to an OTLP collector, while a
 * user goes through every part that handles a secret; then every line and everything the collector was
 * sent is searched for each secret that passed through: passwords, session ids and cookies, API keys,
 * personal API tokens, the Stripe and model keys, the calendar feed's token, a deploy webhook's secret,
 * a cron ping URL's (and a made-up secret on every route whose path holds one, however spelt), and the
 * servers' own secrets. Spans are named by route template, never by a path holding an id.
 */
const dir = mkdtempSync(join(tmpdir(), 'shiplog-logs-'));
const logFile = join(dir, 'backend.log');
const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
const secrets = {
  SESSION_SECRET: secret('session-secret'),
  INTEGRATION_KEY_SECRET: secret('integration-key-secret'),
  password: secret('pw'),
  newPassword: secret('pw2'),
  wrongPassword: secret('wrong'),
};
let backend: Backend;
let stripe: StripeStandIn;
let model: OpenAIStandIn;
let domains: DomainStandIn;
let collector: OtlpStandIn;
/** Every secret that went through, by what it is. */
const seen = new Map<string, string>();

beforeAll(async () => {
  [stripe, model, domains, collector] = await Promise.all([
    startStripeStandIn(),
    startOpenAIStandIn(),
    startDomainStandIn(),
    startOtlpStandIn(),
  ]);
  backend = await startBackend({
    env: {
      ...stripe.env,
      ...model.env,
      ...collector.env,
      LOG_LEVEL: 'trace',
      LOG_FILE: logFile,
      SESSION_SECRET: secrets.SESSION_SECRET,
      INTEGRATION_KEY_SECRET: secrets.INTEGRATION_KEY_SECRET,
      INTEGRATION_ALLOWED_HOSTS: domains.host,
    },
  });
  stripe.deliverTo(`${backend.url}/api/stripe/webhook`);
}, 60_000);
let stopped = false;
afterAll(async () => {
  if (!stopped) await backend?.stop();
  await Promise.all([stripe?.stop(), model?.stop(), domains?.stop(), collector?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

function remember(client: Client) {
  const sid = client.sessionCookie?.slice('shiplog.sid='.length);
  if (!sid) return;
  seen.set(`session cookie ${seen.size}`, decodeURIComponent(sid));
  // The session id itself: `s:<id>.<signature>`.
  seen.set(`session id ${seen.size}`, decodeURIComponent(sid).slice(2).split('.')[0]!);
}

describe('the logs', () => {
  it('hold none of the secrets a user’s every part passed through', async () => {
    const username = uniqueUsername('secretive');
    const client = new Client(backend.url);
    expect((await client.post('/api/register', { username, password: secrets.password })).status).toBe(201);
    remember(client);
    expect(
      (await new Client(backend.url).post('/api/login', { username, password: secrets.wrongPassword })).status,
    ).toBe(401);
    expect((await client.post('/api/login', { username, password: secrets.password })).status).toBe(200);
    remember(client);
    // A bad body that carries a password, and a password change.
    await client.request('POST', '/api/login', `{"username":"${username}","password":"${secrets.wrongPassword}"`);
    expect(
      (
        await client.post('/api/user/change-password', {
          oldPassword: secrets.password,
          newPassword: secrets.newPassword,
        })
      ).status,
    ).toBe(200);

    // Integrations: the key is saved, tested, diagnosed, and used to import.
    const form = { siteName: 'Registrar', baseUrl: domains.url, apiKey: domains.apiKey };
    const saved = await client.post('/api/integrations', form);
    expect(saved.status).toBe(201);
    expect((await client.post('/api/integration/test', form)).status).toBe(200);
    expect((await client.post('/api/integration/diagnostics', form)).status).toBe(200);
    const listed = await client.get(`/api/integrations/${saved.body.id}/projects`);
    expect(listed.status).toBe(200);
    expect(
      (await client.post(`/api/integrations/${saved.body.id}/import`, { projectIds: [listed.body[0].id] })).status,
    ).toBe(200);

    // Billing: a checkout paid, its signed webhooks delivered.
    const checkout = await client.post('/api/stripe/create-checkout-session', {
      priceId: 'price_shiplog_monthly',
      mode: 'subscription',
    });
    expect(checkout.status).toBe(200);
    await stripe.completeCheckout(new URL(checkout.body.url).pathname.split('/').pop()!);

    // The assistant, and the private calendar feed read signed out.
    expect(
      (await client.post('/api/chat', { message: 'What should I ship next?', conversationHistory: [] })).status,
    ).toBe(200);
    const feed = await client.post('/api/reminders/calendar');
    expect(feed.status).toBe(201);
    const feedPath = new URL(feed.body.url, backend.url).pathname;
    expect((await fetch(`${backend.url}${feedPath}`)).status).toBe(200);
    seen.set(
      'calendar token',
      feedPath
        .split('/')
        .pop()!
        .replace(/\.ics$/, ''),
    );

    // A deploy webhook, made and delivered to; a personal API token, made and used.
    const project = await client.post('/api/projects', { name: 'Hooked' });
    expect(project.status).toBe(201);
    const hook = await client.post(`/api/projects/${project.body.id}/deploy-hook`);
    expect(hook.status).toBe(201);
    const hookPath = new URL(hook.body.url).pathname;
    seen.set('deploy webhook secret', hookPath.split('/').pop()!);
    const delivered = await fetch(`${backend.url}${hookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deploymentId: 'run-1', version: '1.0.0' }),
    });
    expect(delivered.status).toBe(201);
    // A delivery the service refuses, and one to a hook that is not there: logged too, still redacted.
    await fetch(`${backend.url}${hookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    const token = await client.post('/api/tokens', { name: 'CI' });
    expect(token.status).toBe(201);
    seen.set('API token', token.body.token);
    const byToken = await fetch(`${backend.url}/api/projects/${project.body.id}`, {
      headers: { authorization: `Bearer ${token.body.token}` },
    });
    expect(byToken.status).toBe(200);

    // A cron ping URL, made and pinged.
    const pingLink = await client.post(`/api/projects/${project.body.id}/ping`);
    expect(pingLink.status).toBe(201);
    const pingPath = new URL(pingLink.body.url).pathname;
    seen.set('ping URL secret', pingPath.split('/').pop()!);
    expect((await fetch(`${backend.url}${pingPath}/start`)).status).toBe(200);
    expect((await fetch(`${backend.url}${pingPath}`, { method: 'POST' })).status).toBe(200);
    // Every route whose path holds a credential, as declared, called with a secret of no link, as
    // spelt and by other spellings (which are refused, and written down all the same).
    for (const template of secretPaths)
      for (const spelling of [
        (p: string) => p,
        (p: string) => `${p}/`,
        (p: string) => p.replace(/\/([^/]+)$/, '//$1'),
        (p: string) => p.replace(/^\/api\/(\w+)/, (_, name: string) => `/api/${name.toUpperCase()}`),
      ]) {
        const made = secret('path-secret');
        seen.set(`${template} ${seen.size}`, made);
        for (const method of ['GET', 'POST'])
          await fetch(`${backend.url}${spelling(fill(template, { secret: made }))}`, { method });
      }

    await client.post('/api/logout');
    stopped = true;
    await backend.stop();

    for (const [name, value] of Object.entries(secrets)) seen.set(name, value);
    seen.set('integration API key', domains.apiKey);
    for (const [name, value] of Object.entries({ ...stripe.env, ...model.env }))
      if (/KEY|SECRET/.test(name)) seen.set(name, value);
    seen.set('INTERNAL_TOKEN_SECRET', backend.internalTokenSecret);

    const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    // Detailed enough to matter: every request is there.
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.some((line) => line.includes('"url":"/integration/test"'))).toBe(true);
    const found: string[] = [];
    for (const line of lines)
      for (const [name, value] of seen) if (line.includes(value)) found.push(`${name} in ${line.slice(0, 200)}`);
    // The internal token travels in a header; no header of it may be written down either.
    for (const line of lines) if (/x-shiplog-internal-token/i.test(line)) found.push(`internal token in ${line}`);
    expect(found).toEqual([]);

    // What a trace backend was given: the same secrets, nowhere; span names without ids.
    await expect.poll(() => collector.spans.some((span) => span.name === 'POST /api/hooks/deploy/:value')).toBe(true);
    const exported = collector.bodies.join('\n');
    expect([...seen].filter(([, value]) => exported.includes(value)).map(([name]) => name)).toEqual([]);
    expect(collector.spans.filter((span) => span.name.includes(project.body.id)).map((span) => span.name)).toEqual([]);
    expect(collector.spans.map((span) => span.name)).toEqual(
      expect.arrayContaining(['GET /projects/:id', 'POST /hooks/deploy/:secret', 'POST /api/user/change-password']),
    );
  });
});
