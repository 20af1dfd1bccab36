import { createAlertSender } from '@shiplog/monitors/alert-sender';
import { checkOutbound, createChecker } from '@shiplog/monitors/checker';
import { Outbound } from '@shiplog/outbound';
import { createMailer } from '@shiplog/service-kit';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { type RdapStandIn, startRdapStandIn } from '@shiplog/testing/rdap';
import { type SmtpStandIn, startSmtpStandIn } from '@shiplog/testing/smtp';
import { startTargetStandIn, type TargetStandIn } from '@shiplog/testing/targets';
import { startWebhookStandIn, type WebhookStandIn } from '@shiplog/testing/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
let smtp: SmtpStandIn;
let target: TargetStandIn;
/** An https site whose certificate ends in 10 days. */
let secure: TargetStandIn;
/** Where alert channels post: a builder's endpoint, Slack, Discord and ntfy. */
let hooks: WebhookStandIn;
/** The registry's RDAP server, for domains typed by hand. */
let rdap: RdapStandIn;
let client: Client;
let projectId: string;
const address = 'shipper@example.com';

beforeAll(async () => {
  [smtp, target, secure, hooks, rdap] = await Promise.all([
    startSmtpStandIn(),
    startTargetStandIn(),
    startTargetStandIn({ tls: { expiresInDays: 10 } }),
    startWebhookStandIn(),
    startRdapStandIn(),
  ]);
  backend = await startBackend({
    env: {
      ...smtp.env,
      MONITOR_ALLOWED_HOSTS: `${target.host},${secure.host},${hooks.host},${rdap.host}`,
      RDAP_URL: rdap.url,
    },
  });
  client = new Client(backend.url);
  expect(
    (
      await client.post('/api/register', {
        username: uniqueUsername('watch'),
        password: 'secret-pass-1',
        email: address,
      })
    ).status,
  ).toBe(201);
  // Alerts go only to a proven address: open the link identity mailed, as its owner would.
  let secret: string | undefined;
  await waitUntil(() => {
    const mail = smtp.received.findLast((m) => m.to.includes(address) && m.raw.includes('/verify-email#'));
    secret = mail && /\/verify-email#([\w-]{64})/.exec(mail.raw)?.[1];
    return Boolean(secret);
  });
  expect((await client.post('/api/email-verification', { token: secret })).status).toBe(200);
  projectId = (await client.post('/api/projects', { name: 'Weather API' })).body.id;
});
afterAll(async () => {
  await alertOutbound?.close();
  await backend?.stop();
  await Promise.all([smtp?.stop(), target?.stop(), secure?.stop(), hooks?.stop(), rdap?.stop()]);
});

/** A checker over the backend's monitors service, with the test's clock (`tick(now)`). */
function checker() {
  const { context } = backend.service('monitors');
  return createChecker(
    context as never,
    checkOutbound({ allowedHosts: [target.host, secure.host, rdap.host], timeoutMs: 1000, ca: [secure.ca!] }),
  );
}

/** The alert sender over the backend's outbox: email to the SMTP stand-in, channels to the receivers. */
let alertSender: ReturnType<typeof createAlertSender>;
let alertOutbound: Outbound;
beforeAll(() => {
  const { context } = backend.service('monitors');
  alertOutbound = new Outbound({ allowedHosts: [hooks.host] });
  alertSender = createAlertSender(
    context as never,
    alertOutbound,
    createMailer({ smtpUrl: smtp.url, from: 'Shiplog <alerts@shiplog.test>', logger: context.logger }),
  );
});

const alertsTo = (subject: RegExp) => smtp.received.filter((m) => m.to.includes(address) && subject.test(m.raw));

/**
 * Sends what the alert outbox holds (written a moment after each event) until `count` emails match,
 * then once more: exactly `count`, however often the outbox is sent.
 */
async function mailed(subject: RegExp, count: number) {
  await waitUntil(
    async () => {
      await alertSender.tick();
      return alertsTo(subject).length >= count;
    },
    5000,
    `${count} × ${subject}`,
  );
  await alertSender.tick();
  expect(alertsTo(subject)).toHaveLength(count);
}

describe('monitors', () => {
  it('tells the cards that this server sends alert email', async () => {
    expect((await client.get('/api/alert-channels/email')).body).toEqual({ sends: true });
    expect((await new Client(backend.url).get('/api/alert-channels/email')).status).toBe(401);
  });

  it('adds a monitor to a project, refuses bad input with the messages, and hides it from others', async () => {
    const bad = await client.post(`/api/projects/${projectId}/monitors`, { url: 'ftp://nope', intervalSeconds: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Please enter a valid URL including http:// or https://');
    const badStatuses = await client.post(`/api/projects/${projectId}/monitors`, {
      url: target.url,
      expectedStatuses: '200-',
    });
    expect(badStatuses.status).toBe(400);
    expect(badStatuses.body.message).toContain('Use status codes and ranges, such as 200-299 or 200,301');

    const made = await client.post(`/api/projects/${projectId}/monitors`, { url: 'https://example.com/health' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      projectId,
      projectName: 'Weather API',
      url: 'https://example.com/health',
      intervalSeconds: 60,
      expectedStatuses: '200-399',
      failureThreshold: 2,
      state: 'pending',
    });
    const listed = await client.get(`/api/projects/${projectId}/monitors`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((m: { id: string }) => m.id)).toContain(made.body.id);

    const other = new Client(backend.url);
    await other.post('/api/register', { username: uniqueUsername('other'), password: 'secret-pass-1' });
    // No role on the project: its monitors are as if they did not exist.
    const projectNotFound = { status: 404, body: { code: 'PROJECT_NOT_FOUND' } };
    const monitorNotFound = { status: 404, body: { code: 'MONITOR_NOT_FOUND' } };
    expect(await other.get(`/api/projects/${projectId}/monitors`)).toMatchObject(projectNotFound);
    expect(await other.post(`/api/projects/${projectId}/monitors`, { url: target.url })).toMatchObject(projectNotFound);
    expect(await other.request('PATCH', `/api/monitors/${made.body.id}`, { paused: true })).toMatchObject(
      monitorNotFound,
    );
    expect(await other.request('DELETE', `/api/monitors/${made.body.id}`)).toMatchObject(monitorNotFound);
    expect((await other.get('/api/monitors')).body).toEqual([]);

    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    expect((await client.get(`/api/projects/${projectId}/monitors`)).body).toEqual([]);
  });

  it('opens an incident after two failed checks in a row, alerts once, and closes it when the site is back', async () => {
    const made = await client.post(`/api/projects/${projectId}/monitors`, {
      url: target.url,
      intervalSeconds: 30,
      keyword: 'All systems normal',
    });
    expect(made.status).toBe(201);
    const id = made.body.id;
    // Read through the gateway once: the checker's list holds the monitor from here on.
    expect((await client.get('/api/monitors')).status).toBe(200);
    const run = checker();
    // The checker's clock starts on this minute: the reads' uptime counts the last 24 hours of the real
    // clock, and the timeline writes each incident's minutes.
    const start = Math.floor(Date.now() / 60_000) * 60_000;
    const at = (seconds: number) => () => new Date(start + seconds * 1000);
    const minute = (seconds: number) => new Date(start + seconds * 1000).toISOString().slice(11, 16);
    const monitor = async () => (await client.get('/api/monitors')).body.find((m: { id: string }) => m.id === id);
    // The checker's reports are not the user's writes: a read waits for them only as the live feed would.
    const until = (state: string) => waitUntil(async () => (await monitor()).state === state, 5000, `state ${state}`);

    // Up: one check, and nothing more until its period has passed.
    expect(await run.tick(at(0))).toEqual({ checked: 1 });
    expect(await run.tick(at(10))).toEqual({ checked: 0 });
    expect(await monitor()).toMatchObject({ state: 'up', lastCheck: { ok: true }, uptime: { day: 1 } });

    // Down (503): the first failure is not yet an incident; the second is.
    target.mode = 'down';
    await run.tick(at(30));
    // Failing, not up: the last check failed, though one failure is not yet an incident.
    expect((await monitor()).state).toBe('failing');
    expect((await monitor()).lastCheck).toMatchObject({ ok: false, cause: 'HTTP 503' });
    await run.tick(at(60));
    await until('down');
    const down = await monitor();
    expect(down).toMatchObject({
      state: 'down',
      openIncident: { cause: 'HTTP 503', startedAt: new Date(start + 30_000).toISOString() },
    });
    await mailed(/Subject: Down: Weather API/, 1);

    // Still down: no second alert; the keyword missing from a 200 is a failure too.
    target.mode = 'up';
    target.body = '<h1>Maintenance</h1>';
    await run.tick(at(90));
    expect((await monitor()).lastCheck).toMatchObject({ ok: false, cause: '"All systems normal" missing' });
    await mailed(/Subject: Down: Weather API/, 1);

    // Back: the incident closes, one "up again" alert, and the timeline tells the story.
    target.body = '<p>All systems normal</p>';
    await run.tick(at(120));
    await until('up');
    expect(await monitor()).toMatchObject({ state: 'up', openIncident: null });
    await mailed(/Subject: Up again: Weather API/, 1);
    type Entry = { eventType: string; details: string; status: string };
    const incidents = async () =>
      ((await client.get(`/api/projects/${projectId}/activities`)).body as Entry[]).filter(
        (a) => a.eventType === 'incident',
      );
    await waitUntil(async () => (await incidents()).length === 2, 5000, 'both incident rows on the timeline');
    const timeline = (await client.get(`/api/projects/${projectId}/activities`)).body as Entry[];
    expect(timeline.filter((a) => a.eventType === 'incident').map((a) => [a.details, a.status])).toEqual([
      [`Down ${minute(0)}–${minute(120)} UTC, 2 min, HTTP 503: Weather API`, 'success'],
      [`Down since ${minute(0)} UTC, HTTP 503: Weather API`, 'failed'],
    ]);
    expect(timeline.some((a) => a.details === `Started monitoring ${target.url}: Weather API`)).toBe(true);

    // A note on the closed incident: what happened. Another user can neither read nor write it.
    const [incident] = (await client.get(`/api/monitors/${id}/incidents`)).body;
    expect(incident).toMatchObject({ cause: 'HTTP 503', endedAt: expect.any(String), note: null });
    const empty = await client.request('PUT', `/api/monitors/${id}/incidents/${incident.id}/note`, { note: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Write what happened');
    const noted = await client.request('PUT', `/api/monitors/${id}/incidents/${incident.id}/note`, {
      note: 'The database ran out of connections after the deploy.',
    });
    expect(noted.status).toBe(200);
    expect((await client.get(`/api/monitors/${id}/incidents`)).body[0].note).toBe(
      'The database ran out of connections after the deploy.',
    );
    const stranger = new Client(backend.url);
    await stranger.post('/api/register', { username: uniqueUsername('nosy'), password: 'secret-pass-1' });
    const monitorNotFound = { status: 404, body: { code: 'MONITOR_NOT_FOUND' } };
    expect(await stranger.get(`/api/monitors/${id}/incidents`)).toMatchObject(monitorNotFound);
    expect(
      await stranger.request('PUT', `/api/monitors/${id}/incidents/${incident.id}/note`, { note: 'Mine now' }),
    ).toMatchObject(monitorNotFound);
    expect((await client.request('DELETE', `/api/monitors/${id}`)).status).toBe(204);
    await run.stop();
  });

  it('reminds while a site stays down, at the repeat its owner asked for, once each', async () => {
    const project = (await client.post('/api/projects', { name: 'Long Outage' })).body.id;
    const bad = await client.post(`/api/projects/${project}/monitors`, { url: target.url, repeatMinutes: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.repeatMinutes).toEqual(['Remind every hour, 4 hours or day, or never']);
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url, repeatMinutes: 60 });
    expect(made.body).toMatchObject({ repeatMinutes: 60 });
    await client.get('/api/monitors');
    const run = checker();
    const start = Date.now();
    const minutes = (n: number) => new Date(start + n * 60_000);
    target.mode = 'down';
    await run.tick(() => minutes(0));
    await run.tick(() => minutes(1.1));
    await mailed(/Subject: Down: Long Outage/, 1);
    // Half an hour on: nothing yet; an hour after the alert: the first reminder, once.
    await run.tick(() => minutes(31));
    await mailed(/Subject: Still down: Long Outage/, 0);
    await run.tick(() => minutes(62));
    await mailed(/Subject: Still down: Long Outage \(HTTP 503\)/, 1);
    await run.tick(() => minutes(63));
    await mailed(/Subject: Still down: Long Outage/, 1);
    await run.tick(() => minutes(123));
    await mailed(/Subject: Still down: Long Outage/, 2);
    target.mode = 'up';
    await run.tick(() => minutes(124));
    await mailed(/Subject: Up again: Long Outage/, 1);
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('shows a site as slow (degraded) when it answers later than its owner allows, and up again when it is quick', async () => {
    const project = (await client.post('/api/projects', { name: 'Slow Site' })).body.id;
    const bad = await client.post(`/api/projects/${project}/monitors`, { url: target.url, maxResponseMs: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.maxResponseMs).toEqual(['A slow answer is 100 to 30000 ms, or leave it empty']);
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url, maxResponseMs: 150 });
    expect(made.body).toMatchObject({ maxResponseMs: 150 });
    await client.get('/api/monitors');
    const run = checker();
    const start = Date.now();
    const monitor = async () => (await client.get(`/api/projects/${project}/monitors`)).body[0];
    target.mode = 'slow';
    target.slowMs = 400;
    await run.tick(() => new Date(start));
    expect(await monitor()).toMatchObject({ state: 'degraded', lastCheck: { ok: true } });
    // Slow is not down: no incident, no alert.
    expect((await monitor()).openIncident).toBeNull();
    target.mode = 'up';
    await run.tick(() => new Date(start + 61_000));
    expect((await monitor()).state).toBe('up');
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('names the deployment an incident follows', async () => {
    const project = (await client.post('/api/projects', { name: 'Fresh Deploy' })).body.id;
    expect((await client.post(`/api/projects/${project}/deployment`, { version: '1.4.0' })).status).toBe(201);
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url, intervalSeconds: 30 });
    expect(made.status).toBe(201);
    await client.get('/api/monitors');
    target.mode = 'down';
    const run = checker();
    // A minute after the deploy (the checker's clock; the deploy was recorded just now).
    const start = Date.now() + 60_000;
    await run.tick(() => new Date(start));
    await run.tick(() => new Date(start + 30_000));
    await waitUntil(
      async () =>
        (await client.get(`/api/projects/${project}/monitors`)).body[0]?.openIncident?.cause ===
        'HTTP 503 after deploy 1.4.0',
      5000,
      'the incident to name the deploy',
    );
    await mailed(/Subject: Down: Fresh Deploy \(HTTP 503 after deploy 1\.4\.0\)/, 1);
    target.mode = 'up';
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('holds alerts while a production deployment is under way, and names it if the site is still down after', async () => {
    const project = (await client.post('/api/projects', { name: 'Careful Deploys' })).body.id;
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url });
    const deploy = (status: string, environment = 'production') =>
      client.post(`/api/projects/${project}/deployment`, { version: '3.0.0', environment, status });
    expect((await deploy('halfway')).status).toBe(400);
    expect((await deploy('started')).status).toBe(201);
    const monitor = async () => (await client.get(`/api/projects/${project}/monitors`)).body[0];
    await waitUntil(async () => (await monitor()).maintenanceSince !== null, 5000, 'the maintenance window');
    const run = checker();
    const start = Date.now();
    // What the monitor's stream holds: the list may lag a check's report, the stream never does.
    const opened = async () =>
      (await backend.service('monitors').context.store.readStream(`monitor-${made.body.id}`)).filter(
        (e) => e.type === 'IncidentOpened',
      ).length;
    target.mode = 'down';
    await run.tick(() => new Date(start + 1000));
    await run.tick(() => new Date(start + 62_000));
    await run.tick(() => new Date(start + 123_000));
    // Three failures in the window: no incident, so no alert.
    expect(await opened()).toBe(0);
    // A staging deployment's end does not close a production window.
    expect((await deploy('success', 'staging')).status).toBe(201);
    await run.tick(() => new Date(start + 184_000));
    expect(await opened()).toBe(0);
    // The deployment succeeded, and the site is still down: the incident opens and names it.
    expect((await deploy('success')).status).toBe(201);
    await waitUntil(async () => (await monitor()).maintenanceSince === null, 5000, 'the window to close');
    await run.tick(() => new Date(start + 245_000));
    await waitUntil(async () => (await monitor()).state === 'down', 5000, 'the incident');
    expect((await monitor()).openIncident.cause).toBe('HTTP 503 after deploy 3.0.0');
    await mailed(/Subject: Down: Careful Deploys/, 1);
    // The timeline is another service's projection: it may come a moment after the incident.
    const started = async () =>
      ((await client.get(`/api/projects/${project}/activities`)).body as { details: string; status: string }[]).some(
        (a) => a.details === 'Deployment to production started: Careful Deploys' && a.status === 'in_progress',
      );
    await waitUntil(started, 5000, 'the started deployment on the timeline');
    target.mode = 'up';
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('warns of an https site’s certificate at 14, 7 and 1 days before it ends, once each, and again once renewed', async () => {
    const project = (await client.post('/api/projects', { name: 'Secure Site' })).body.id;
    const made = await client.post(`/api/projects/${project}/monitors`, { url: secure.url });
    expect(made.status).toBe(201);
    await client.get('/api/monitors');
    const run = checker();
    const monitor = async () => (await client.get(`/api/projects/${project}/monitors`)).body[0];
    const start = Date.now();
    const day = 86_400_000;

    // Ten days left: the 14-day warning, once however often it is checked.
    await run.tick(() => new Date(start));
    await mailed(/Subject: Certificate ends in \d+ days?: Secure Site/, 1);
    await mailed(/Subject: Certificate ends in 10 days: Secure Site/, 1);
    const checked = await monitor();
    expect(checked).toMatchObject({ state: 'up', lastCheck: { ok: true } });
    const endsAt = Date.parse(checked.lastCheck.expiresAt);
    expect(Math.abs(endsAt - (start + 10 * day))).toBeLessThan(60_000);
    await run.tick(() => new Date(start + 61_000));
    // Three and a half days on, six and a half are left: the 7-day warning.
    await run.tick(() => new Date(start + 3.5 * day));
    await mailed(/Subject: Certificate ends in \d+ days?: Secure Site/, 2);
    await mailed(/Subject: Certificate ends in 7 days: Secure Site/, 1);
    await run.tick(() => new Date(start + 3.5 * day + 61_000));
    await mailed(/Subject: Certificate ends in \d+ days?: Secure Site/, 2);
    // Half a day left: the last warning.
    await run.tick(() => new Date(start + 9.5 * day));
    await mailed(/Subject: Certificate ends in \d+ days?: Secure Site/, 3);
    await mailed(/Subject: Certificate ends in 1 day: Secure Site/, 1);

    // Renewed for 40 days: nothing to say until the new one is 14 days from its end.
    await secure.renew(40);
    await run.tick(() => new Date(start + 10 * day));
    const renewedEnd = Date.parse((await monitor()).lastCheck.expiresAt);
    expect(renewedEnd - endsAt).toBeGreaterThan(29 * day);
    await run.tick(() => new Date(renewedEnd - 10 * day));
    await mailed(/Subject: Certificate ends in \d+ days?: Secure Site/, 4);
    await mailed(/Subject: Certificate ends in 10 days: Secure Site/, 2);

    // The timeline is another service's projection: it may come a moment after the mail.
    const end = new Date(endsAt).toISOString().slice(0, 10);
    const warned = async () =>
      ((await client.get(`/api/projects/${project}/activities`)).body as { details: string }[]).some(
        (a) => a.details === `Certificate of ${secure.url} ends ${end}, in 10 days: Secure Site`,
      );
    await waitUntil(warned, 5000, 'the warning on the timeline');
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('watches a domain typed by hand: its registration’s end from RDAP, warned of, and an incident once it has ended', async () => {
    const project = (await client.post('/api/projects', { name: 'Side Domain' })).body.id;
    const bad = await client.post(`/api/projects/${project}/monitors`, { kind: 'domain', domain: 'not a domain' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.domain).toEqual(['Please enter a domain name, such as example.com']);
    const day = 86_400_000;
    const start = Date.now();
    rdap.expirations.set('weather-side.example', new Date(start + 6.5 * day));
    const made = await client.post(`/api/projects/${project}/monitors`, {
      kind: 'domain',
      domain: 'Weather-Side.example.',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'domain', url: 'weather-side.example', intervalSeconds: 86_400 });
    await client.get('/api/monitors');
    const run = checker();
    const monitor = async () => (await client.get(`/api/projects/${project}/monitors`)).body[0];

    // Six and a half days left: the 7-day warning, with the end on the card and the timeline.
    await run.tick(() => new Date(start));
    await mailed(/Subject: Domain ends in 7 days: weather-side\.example/, 1);
    expect((await monitor()).lastCheck).toMatchObject({
      ok: true,
      expiresAt: new Date(start + 6.5 * day).toISOString(),
    });
    // Looked up once a day, not before.
    const lookups = rdap.lookups;
    await run.tick(() => new Date(start + 3600_000));
    expect(rdap.lookups).toBe(lookups);
    // It ends unrenewed: two daily lookups that find it ended open an incident.
    await run.tick(() => new Date(start + 7 * day));
    await run.tick(() => new Date(start + 8 * day + 1000));
    await waitUntil(async () => (await monitor()).state === 'down', 5000, 'the incident');
    const ended = new Date(start + 6.5 * day).toISOString().slice(0, 10);
    expect((await monitor()).openIncident.cause).toBe(`registration ended ${ended}`);
    // Renewed for a year: up again.
    rdap.expirations.set('weather-side.example', new Date(start + 365 * day));
    await run.tick(() => new Date(start + 9 * day + 2000));
    await waitUntil(async () => (await monitor()).state === 'up', 5000, 'the renewal');
    // The timeline is another service's projection: it may come a moment after the monitor's state.
    const warned = async () =>
      ((await client.get(`/api/projects/${project}/activities`)).body as { details: string }[]).some(
        (a) => a.details === `Registration of weather-side.example ends ${ended}, in 7 days: Side Domain`,
      );
    await waitUntil(warned, 5000, 'the warning on the timeline');
    // A name no registry knows is an incident too, after two lookups.
    const unknown = await client.post(`/api/projects/${project}/monitors`, {
      kind: 'domain',
      domain: 'nobody-owns.example',
    });
    expect(unknown.status).toBe(201);
    await client.get('/api/monitors');
    type Listed = { id: string; state: string; openIncident: { cause: string } | null };
    const nobody = async () =>
      ((await client.get(`/api/projects/${project}/monitors`)).body as Listed[]).find((m) => m.id === unknown.body.id)!;
    await run.tick(() => new Date(start + 10 * day + 3000));
    // One lookup that found nothing: failing, never a green "up".
    expect(await nobody()).toMatchObject({ state: 'failing', openIncident: null });
    await run.tick(() => new Date(start + 11 * day + 4000));
    await waitUntil(async () => (await nobody()).state === 'down', 5000, 'the unknown name’s incident');
    expect((await nobody()).openIncident?.cause).toBe('no registry knows it');
    for (const id of [made.body.id, unknown.body.id])
      expect((await client.request('DELETE', `/api/monitors/${id}`)).status).toBe(204);
    await run.stop();
  });

  it('expects a backup every hour, counts one recorded, and tells when the next is missed', async () => {
    const project = (await client.post('/api/projects', { name: 'Nightly' })).body.id;
    const tooOften = await client.post(`/api/projects/${project}/monitors`, { kind: 'backup', intervalSeconds: 60 });
    expect(tooOften.status).toBe(400);
    expect(tooOften.body.message).toContain('Expect one every hour to every 30 days');
    const made = await client.post(`/api/projects/${project}/monitors`, {
      kind: 'backup',
      intervalSeconds: 3600,
      graceSeconds: 0,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'backup', url: '', intervalSeconds: 3600, graceSeconds: 0 });
    const setAt = Date.parse(made.body.createdAt);
    // A backup recorded a moment later: the next one is due an hour after it, not after the setting.
    expect((await client.post(`/api/projects/${project}/backup`, { notes: 'nightly dump' })).status).toBe(201);
    type Entry = { eventType: string; details: string; timestamp: string };
    const timeline = async () => (await client.get(`/api/projects/${project}/activities`)).body as Entry[];
    await waitUntil(async () => (await timeline()).some((a) => a.eventType === 'backup_created'), 5000, 'the backup');
    expect((await timeline()).map((a) => a.details)).toContain('Expecting a backup every hour: Nightly');
    await client.get('/api/monitors');
    const run = checker();
    const monitor = async () => (await client.get(`/api/projects/${project}/monitors`)).body[0];
    // Past an hour since the setting, within an hour of the backup: on time, only because it counted.
    // The backup's time as the monitors service holds it, which its checks count from.
    let ranAt = Number.NaN;
    await waitUntil(
      async () => {
        const { rows } = await backend
          .service('monitors')
          .context.pool.query<{ at: Date }>('SELECT at FROM monitors.last_runs WHERE project_id = $1', [project]);
        ranAt = rows[0]?.at.getTime() ?? Number.NaN;
        return rows.length === 1;
      },
      5000,
      'the backup to reach the monitors service',
    );
    expect(ranAt).toBeGreaterThan(setAt);
    await run.tick(() => new Date(setAt + 3_600_000 + (ranAt - setAt) / 2));
    expect(await monitor()).toMatchObject({ state: 'up', lastCheck: { ok: true } });
    // Two minutes past the hour after the backup: missed, one alert.
    await run.tick(() => new Date(ranAt + 3_720_000));
    await waitUntil(async () => (await monitor()).state === 'down', 5000, 'the expectation to be missed');
    const since = new Date(ranAt).toISOString().slice(0, 16).replace('T', ' ');
    expect((await monitor()).openIncident.cause).toBe(`no backup since ${since} UTC`);
    await mailed(/Subject: Missed: Nightly \(no backup since/, 1);
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('gives a project a cron ping URL: a failed run is missed work at once, a good one ends it, a start with no end fails', async () => {
    const project = (await client.post('/api/projects', { name: 'Cron Dump' })).body.id;
    expect((await client.get(`/api/projects/${project}/ping`)).body).toEqual({
      active: false,
      createdAt: null,
      runs: [],
    });
    const made = await client.post(`/api/projects/${project}/ping`);
    expect(made.status).toBe(201);
    const ping = `${backend.url}${new URL(made.body.url).pathname}`;
    expect(ping).toMatch(/\/api\/ping\/[\w-]{32}$/);
    const expecting = await client.post(`/api/projects/${project}/monitors`, {
      kind: 'backup',
      intervalSeconds: 86_400,
      graceSeconds: 600,
    });
    expect(expecting.status).toBe(201);
    const monitor = async () => (await client.get(`/api/projects/${project}/monitors`)).body[0];
    await client.get('/api/monitors');

    // Cron jobs have no session: the secret is the credential, GET or POST alike.
    const call = async (path: string, method = 'GET') => {
      const response = await fetch(`${ping}${path}`, { method });
      return { status: response.status, body: await response.json() };
    };
    expect(await call('/start')).toMatchObject({ status: 200, body: { outcome: 'running', endedAt: null } });
    const ended = await call('', 'POST');
    expect(ended).toMatchObject({ status: 200, body: { outcome: 'ok', seconds: expect.any(Number) } });
    const failed = await call('/fail');
    expect(failed).toMatchObject({ status: 200, body: { outcome: 'failed', seconds: null } });

    const run = checker();
    const start = Date.now();
    await run.tick(() => new Date(start));
    await waitUntil(async () => (await monitor()).state === 'down', 5000, 'the failed run to be missed work');
    const failedAt = failed.body.endedAt.slice(0, 16).replace('T', ' ');
    expect((await monitor()).openIncident.cause).toBe(`backup failed at ${failedAt} UTC`);
    await mailed(/Subject: Missed: Cron Dump \(backup failed at/, 1);

    // The next good run ends the incident at the next look.
    expect((await call('')).body.outcome).toBe('ok');
    await run.tick(() => new Date(start + 61_000));
    await waitUntil(async () => (await monitor()).state === 'up', 5000, 'the good run to end the incident');
    await mailed(/Subject: On time again: Cron Dump/, 1);

    // A start whose end does not come within the grace (10 minutes) is a failure.
    const started = await call('/start');
    await run.tick(() => new Date(start + 122_000));
    expect((await monitor()).state).toBe('up');
    await run.tick(() => new Date(Date.parse(started.body.startedAt) + 661_000));
    await waitUntil(async () => (await monitor()).state === 'down', 5000, 'the unfinished run to fail');
    expect((await monitor()).openIncident.cause).toMatch(/^backup started at .+ UTC did not finish$/);

    const state = (await client.get(`/api/projects/${project}/ping`)).body;
    expect(state.active).toBe(true);
    expect(state.runs.map((r: { outcome: string }) => r.outcome)).toEqual(['running', 'ok', 'failed', 'ok']);

    // Only the secret works: another is not found; a replaced URL stops at once; off is off.
    expect((await fetch(`${backend.url}/api/ping/${'B'.repeat(32)}`)).status).toBe(404);
    const replaced = await client.post(`/api/projects/${project}/ping`);
    expect((await fetch(ping)).status).toBe(404);
    const now = `${backend.url}${new URL(replaced.body.url).pathname}`;
    expect((await fetch(now)).status).toBe(200);
    expect((await client.request('DELETE', `/api/projects/${project}/ping`)).status).toBe(204);
    const gone = await fetch(now);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'PING_NOT_FOUND' });
    expect((await client.request('DELETE', `/api/monitors/${expecting.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('sends each alert to the owner’s webhook, Slack, Discord and ntfy once, retries a failure with backoff, and logs it', async () => {
    const bad = await client.post('/api/alert-channels', { kind: 'pager', name: '', url: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toMatchObject({
      kind: ['Choose a webhook, Slack, Discord or ntfy'],
      name: ['Name is required'],
      url: ['Please enter a valid URL including http:// or https://'],
    });
    const inside = await client.post('/api/alert-channels', {
      kind: 'webhook',
      name: 'Inside',
      url: 'http://10.0.0.7/hook',
    });
    expect(inside.status).toBe(400);
    expect(inside.body.fieldErrors.url[0]).toMatch(/private/);

    const add = (kind: string, name: string, path: string) =>
      client.post('/api/alert-channels', { kind, name, url: `${hooks.url}${path}` });
    const generic = await add('webhook', 'My endpoint', '/alerts/in?key=private-key-1');
    expect(generic.status).toBe(201);
    expect(generic.body).toMatchObject({
      kind: 'webhook',
      origin: hooks.url,
      signingSecret: expect.stringMatching(/^whsec_/),
    });
    const slack = await add('slack', 'Team Slack', '/services/T1/B2/secret-slack-path');
    const discord = await add('discord', 'Discord', '/api/webhooks/42/secret-discord-token');
    const ntfy = await add('ntfy', 'Phone', '/shiplog-alerts');
    expect([slack.status, discord.status, ntfy.status]).toEqual([201, 201, 201]);
    expect(slack.body.signingSecret).toBeNull();
    const listed = await client.get('/api/alert-channels');
    expect(listed.body.map((c: { name: string }) => c.name)).toEqual(['My endpoint', 'Team Slack', 'Discord', 'Phone']);
    expect(listed.text).not.toContain('secret-slack-path');
    expect(listed.text).not.toContain('whsec_');

    // The test button sends at once, and answers how it went.
    const tested = await client.post(`/api/alert-channels/${slack.body.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ kind: 'test', state: 'sent', attempts: 1, channelName: 'Team Slack' });
    expect(JSON.parse(hooks.received.at(-1)!.body).text).toContain('Test alert from Shiplog');

    const project = (await client.post('/api/projects', { name: 'Paging Site' })).body.id;
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url });
    await client.get('/api/monitors');
    const run = checker();
    const sender = alertSender;
    type Delivery = {
      kind: string;
      summary: string;
      state: string;
      attempts: number;
      lastError: string | null;
      channelName: string;
    };
    // This site's: the log holds the other tests' alerts too.
    const deliveries = async (kind: string) =>
      ((await client.get('/api/alert-channels/deliveries')).body as Delivery[]).filter(
        (d) => d.kind === kind && d.summary.includes('Paging Site'),
      );
    const start = Date.now();
    target.mode = 'down';
    await run.tick(() => new Date(start));
    await run.tick(() => new Date(start + 61_000));
    await waitUntil(
      async () => (await deliveries('incident.opened')).length === 5,
      5000,
      'the down alert’s deliveries',
    );
    const before = hooks.received.length;
    // The owner's proven address and the four channels, once each, whatever ticks follow.
    await sender.tick(() => new Date(start + 62_000));
    expect((await deliveries('incident.opened')).map((d) => `${d.channelName}:${d.state}`).sort()).toEqual([
      'Discord:sent',
      'Email:sent',
      'My endpoint:sent',
      'Phone:sent',
      'Team Slack:sent',
    ]);
    await sender.tick(() => new Date(start + 600_000));
    // This site's down alerts (a retry of another test's alert may land meanwhile): one a channel.
    const sent = hooks.received.slice(before).filter((h) => h.body.includes('Down: Paging Site'));
    expect(sent).toHaveLength(4);
    await mailed(/Subject: Down: Paging Site/, 1);
    const to = (prefix: string) => sent.find((h) => h.path.startsWith(prefix))!;
    const signed = to('/alerts/in');
    expect(hooks.verify(signed, generic.body.signingSecret)).toBe(true);
    expect(hooks.verify(signed, 'whsec_someone-else')).toBe(false);
    expect(JSON.parse(signed.body)).toMatchObject({ type: 'incident.opened', title: 'Down: Paging Site (HTTP 503)' });
    expect(JSON.parse(to('/services/').body).text).toMatch(/^\*Down: Paging Site \(HTTP 503\)\*/);
    expect(JSON.parse(to('/api/webhooks/').body).content).toMatch(/^\*\*Down: Paging Site/);
    const published = sent.find((h) => h.path === '/')!;
    expect(JSON.parse(published.body)).toMatchObject({
      topic: 'shiplog-alerts',
      title: 'Down: Paging Site (HTTP 503)',
    });

    // Up again; one receiver fails the first try: tried again after 30 s, with the same alert id.
    target.mode = 'up';
    hooks.failNext = 1;
    await run.tick(() => new Date(start + 122_000));
    await waitUntil(async () => (await deliveries('incident.closed')).length === 5, 5000, 'the up alert’s deliveries');
    await sender.tick(() => new Date(start + 123_000));
    const retried = (await deliveries('incident.closed')).filter((d) => d.state === 'pending');
    expect(retried).toMatchObject([{ attempts: 1, lastError: 'HTTP 500' }]);
    await sender.tick(() => new Date(start + 140_000));
    expect((await deliveries('incident.closed')).filter((d) => d.state === 'pending')).toHaveLength(1);
    await sender.tick(() => new Date(start + 154_000));
    expect((await deliveries('incident.closed')).every((d) => d.state === 'sent')).toBe(true);
    const closedTries = hooks.received.filter((h) => h.body.includes('Up again: Paging Site'));
    expect(closedTries).toHaveLength(5);

    expect((await client.request('DELETE', `/api/alert-channels/${ntfy.body.id}`)).status).toBe(204);
    expect((await client.get('/api/alert-channels')).body).toHaveLength(3);
    for (const id of [generic.body.id, slack.body.id, discord.body.id])
      expect((await client.request('DELETE', `/api/alert-channels/${id}`)).status).toBe(204);
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('sends a team project’s alerts to its workspace’s channels, once per transition, kept by its owners and admins', async () => {
    const workspaceId = (await client.post('/api/workspaces', { name: 'Paging crew' })).body.id as string;
    const member = new Client(backend.url);
    const memberName = uniqueUsername('pager');
    await member.post('/api/register', { username: memberName, password: 'secret-pass-1' });
    const invite = await client.post(`/api/workspaces/${workspaceId}/invites`, { username: memberName });
    await waitUntil(async () => (await member.get('/api/invites')).body.length === 1);
    expect((await member.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
    const outsider = new Client(backend.url);
    await outsider.post('/api/register', { username: uniqueUsername('nopager'), password: 'secret-pass-1' });

    const teamHook = { kind: 'webhook', name: 'Crew hook', url: `${hooks.url}/crew/hook` };
    await waitUntil(async () => (await member.get(`/api/workspaces/${workspaceId}`)).status === 200);
    const refused = await member.post(`/api/workspaces/${workspaceId}/alert-channels`, teamHook);
    expect(refused.status).toBe(403);
    expect((await outsider.post(`/api/workspaces/${workspaceId}/alert-channels`, teamHook)).status).toBe(404);
    expect((await outsider.get(`/api/workspaces/${workspaceId}/alert-channels`)).status).toBe(404);
    const added = await client.post(`/api/workspaces/${workspaceId}/alert-channels`, teamHook);
    expect(added.status).toBe(201);
    expect(added.body.signingSecret).toMatch(/^whsec_/);
    const mine = await client.post('/api/alert-channels', {
      kind: 'webhook',
      name: 'Mine',
      url: `${hooks.url}/mine/hook`,
    });
    expect(
      (await client.get(`/api/workspaces/${workspaceId}/alert-channels`)).body.map((c: { name: string }) => c.name),
    ).toEqual(['Crew hook']);
    expect((await client.get('/api/alert-channels')).body.map((c: { name: string }) => c.name)).toEqual(['Mine']);

    // The member's monitor on the team's project: its alerts go to the team's hook, not its maker's own.
    const project = (await client.post('/api/projects', { name: 'Crew Site', workspaceId })).body.id as string;
    await member.untilReaches(project);
    const made = await member.post(`/api/projects/${project}/monitors`, { url: target.url });
    expect(made.status).toBe(201);
    // Read through the gateway: the checker's list has it once this answers.
    await member.get('/api/monitors');
    const run = checker();
    const deliveries = async (kind: string) =>
      (
        (await client.get(`/api/workspaces/${workspaceId}/alert-channels/deliveries`)).body as {
          kind: string;
          summary: string;
          state: string;
          channelName: string;
        }[]
      ).filter((d) => d.kind === kind && d.summary.includes('Crew Site'));
    const start = Date.now();
    target.mode = 'down';
    await run.tick(() => new Date(start));
    await run.tick(() => new Date(start + 61_000));
    await waitUntil(async () => (await deliveries('incident.opened')).length === 1, 5000, 'the team’s down alert');
    await alertSender.tick(() => new Date(start + 62_000));
    await alertSender.tick(() => new Date(start + 600_000));
    expect((await deliveries('incident.opened')).map((d) => `${d.channelName}:${d.state}`)).toEqual(['Crew hook:sent']);
    const crew = () => hooks.received.filter((h) => h.path === '/crew/hook' && h.body.includes('Crew Site'));
    expect(crew()).toHaveLength(1);
    expect(hooks.verify(crew()[0]!, added.body.signingSecret)).toBe(true);
    expect(JSON.parse(crew()[0]!.body)).toMatchObject({ type: 'incident.opened', title: 'Down: Crew Site (HTTP 503)' });
    expect(hooks.received.filter((h) => h.path === '/mine/hook' && h.body.includes('Crew Site'))).toHaveLength(0);
    // Emailed to each member with a proven address (the monitor's maker has none): the owner here.
    await mailed(/Subject: Down: Crew Site/, 1);
    // The owner turns the workspace's alert emails off: the next is not mailed to them.
    expect((await client.get(`/api/workspaces/${workspaceId}/alert-mail`)).body).toEqual({ mail: true });
    const off = await client.request('PUT', `/api/workspaces/${workspaceId}/alert-mail`, { mail: false });
    expect(off.body).toEqual({ mail: false });
    expect((await client.request('PUT', `/api/workspaces/${workspaceId}/alert-mail`, { mail: 'no' })).status).toBe(400);
    expect((await outsider.get(`/api/workspaces/${workspaceId}/alert-mail`)).status).toBe(404);

    target.mode = 'up';
    await run.tick(() => new Date(start + 122_000));
    await waitUntil(async () => (await deliveries('incident.closed')).length === 1, 5000, 'the team’s up alert');
    await alertSender.tick(() => new Date(start + 123_000));
    await alertSender.tick(() => new Date(start + 700_000));
    expect(crew().map((h) => JSON.parse(h.body).type)).toEqual(['incident.opened', 'incident.closed']);
    expect(alertsTo(/Subject: Up again: Crew Site/)).toHaveLength(0);
    expect((await client.request('PUT', `/api/workspaces/${workspaceId}/alert-mail`, { mail: true })).status).toBe(200);

    expect(
      (await member.request('DELETE', `/api/workspaces/${workspaceId}/alert-channels/${added.body.id}`)).status,
    ).toBe(403);
    expect(
      (await client.request('DELETE', `/api/workspaces/${workspaceId}/alert-channels/${added.body.id}`)).status,
    ).toBe(204);
    expect((await client.request('DELETE', `/api/alert-channels/${mine.body.id}`)).status).toBe(204);
    expect((await member.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await run.stop();
  });

  it('refuses a monitor on a private or loopback address when it is added or changed, on its URL', async () => {
    const project = (await client.post('/api/projects', { name: 'Inside Box' })).body.id;
    for (const url of ['http://127.0.0.1:9/health', 'http://10.1.2.3/', 'http://[::1]/', 'http://localhost:8080/']) {
      const refused = await client.post(`/api/projects/${project}/monitors`, { url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.fieldErrors.url[0], url).toMatch(
        /^Refused: .* is a private, loopback or reserved address\. Shiplog only connects to public addresses\.$/,
      );
    }
    // An allowed host (MONITOR_ALLOWED_HOSTS) is not refused; changing it to a private address is.
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url });
    expect(made.status).toBe(201);
    const changed = await client.request('PATCH', `/api/monitors/${made.body.id}`, {
      url: 'http://169.254.169.254/latest/meta-data/',
    });
    expect(changed.status).toBe(400);
    expect(changed.body.fieldErrors.url[0]).toMatch(/^Refused: 169\.254\.169\.254 is a private/);
    expect((await client.get(`/api/projects/${project}/monitors`)).body[0].url).toBe(target.url);
    expect((await client.request('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
  });

  it('never counts a check refused by policy as an outage: no incident, no uptime, and the card says why', async () => {
    const project = (await client.post('/api/projects', { name: 'Private Box' })).body.id;
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url, intervalSeconds: 30 });
    const id = made.body.id;
    await client.get('/api/monitors');
    const start = Math.floor(Date.now() / 60_000) * 60_000;
    const at = (seconds: number) => () => new Date(start + seconds * 1000);
    const monitor = async () => (await client.get(`/api/projects/${project}/monitors`)).body[0];
    const checks = async () =>
      Number(
        (
          await backend
            .service('monitors')
            .context.pool.query(
              'SELECT coalesce(sum(checks), 0) AS n FROM monitors.check_rollups WHERE monitor_id = $1',
              [id],
            )
        ).rows[0].n,
      );
    // Down for real, from an address that was public.
    const run = checker();
    target.mode = 'down';
    await run.tick(at(0));
    await run.tick(at(30));
    await waitUntil(async () => (await monitor()).state === 'down', 5000, 'the incident');
    await mailed(/Subject: Down: Private Box/, 1);
    const counted = await checks();
    // Its name now resolves to a private address: the guard refuses each check.
    const guarded = createChecker(
      backend.service('monitors').context as never,
      checkOutbound({ allowedHosts: [], timeoutMs: 1000 }),
    );
    await guarded.tick(at(60));
    await waitUntil(async () => (await monitor()).openIncident === null, 5000, 'the incident to end');
    await guarded.tick(at(90));
    expect(await monitor()).toMatchObject({
      state: 'unchecked',
      openIncident: null,
      lastCheck: { refused: true, cause: expect.stringMatching(/^Refused: 127\.0\.0\.1 is a private/) },
    });
    expect(await checks()).toBe(counted);
    const [incident] = (await client.get(`/api/monitors/${id}/incidents`)).body;
    expect(incident.endedAt).toEqual(expect.any(String));
    // Public again, and still down: a new incident (its alert, the sentinel), and no "up again" ever.
    await run.tick(at(120));
    await waitUntil(async () => (await monitor()).state === 'down', 5000, 'the new incident');
    await mailed(/Subject: Down: Private Box/, 2);
    expect(alertsTo(/Subject: Up again: Private Box/)).toHaveLength(0);
    target.mode = 'up';
    expect((await client.request('DELETE', `/api/monitors/${id}`)).status).toBe(204);
    await Promise.all([run.stop(), guarded.stop()]);
  });

  it('ends a down monitor’s incident as paused or removed when it is paused or removed, and tells nobody it is up', async () => {
    const project = (await client.post('/api/projects', { name: 'Gone Box' })).body.id;
    const add = async () => {
      const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url, intervalSeconds: 30 });
      await client.get('/api/monitors');
      return made.body.id as string;
    };
    const start = Math.floor(Date.now() / 60_000) * 60_000;
    const at = (seconds: number) => () => new Date(start + seconds * 1000);
    const state = async (id: string) =>
      (await client.get(`/api/projects/${project}/monitors`)).body.find((m: { id: string }) => m.id === id)?.state;
    const run = checker();
    target.mode = 'down';
    const first = await add();
    await run.tick(at(0));
    await run.tick(at(30));
    await waitUntil(async () => (await state(first)) === 'down', 5000, 'the incident');
    await mailed(/Subject: Down: Gone Box/, 1);
    expect((await client.request('PATCH', `/api/monitors/${first}`, { paused: true })).status).toBe(200);
    expect((await client.request('PATCH', `/api/monitors/${first}`, { paused: false })).status).toBe(200);
    // Read through the gateway once: the checker's list holds it resumed from here on.
    expect(await state(first)).toBe('failing');
    await run.tick(at(60));
    await run.tick(at(90));
    await waitUntil(async () => (await state(first)) === 'down', 5000, 'the second incident');
    await mailed(/Subject: Down: Gone Box/, 2);
    expect((await client.request('DELETE', `/api/monitors/${first}`)).status).toBe(204);
    // The sentinel: another monitor's incident, alerted after the removal's events.
    const second = await add();
    await run.tick(at(120));
    await run.tick(at(150));
    await waitUntil(async () => (await state(second)) === 'down', 5000, 'the sentinel incident');
    await mailed(/Subject: Down: Gone Box/, 3);
    expect(alertsTo(/Subject: Up again: Gone Box/)).toHaveLength(0);
    type Entry = { eventType: string; action: string; details: string };
    const ended = async () =>
      ((await client.get(`/api/projects/${project}/activities`)).body as Entry[]).filter(
        (a) => a.eventType === 'incident' && a.action !== 'down',
      );
    await waitUntil(async () => (await ended()).length === 2, 5000, 'both endings on the timeline');
    expect((await ended()).map((a) => [a.action, a.details.replace(/^.*HTTP 503/, '')])).toEqual([
      ['ended', ', ended when the monitor was removed: Gone Box'],
      ['ended', ', ended when the monitor was paused: Gone Box'],
    ]);
    target.mode = 'up';
    expect((await client.request('DELETE', `/api/monitors/${second}`)).status).toBe(204);
    await run.stop();
  });

  it('checks a paused monitor no more, and removes a deleted project’s monitors and ping URL', async () => {
    const project = (await client.post('/api/projects', { name: 'Short-lived' })).body.id;
    const made = await client.post(`/api/projects/${project}/monitors`, { url: target.url });
    const paused = await client.request('PATCH', `/api/monitors/${made.body.id}`, { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body.state).toBe('paused');
    const run = checker();
    const hits = target.hits;
    await client.get('/api/monitors');
    // An hour on, when the monitor would long be due, were it not paused.
    expect(await run.tick(() => new Date(Date.now() + 3_600_000))).toEqual({ checked: 0 });
    expect(target.hits).toBe(hits);

    const ping = new URL((await client.post(`/api/projects/${project}/ping`)).body.url).pathname;
    expect((await fetch(`${backend.url}${ping}`)).status).toBe(200);

    expect((await client.request('DELETE', `/api/projects/${project}`)).status).toBe(204);
    await waitUntil(
      async () => (await client.get('/api/monitors')).body.every((m: { projectId: string }) => m.projectId !== project),
      5000,
      'the project’s monitors to go',
    );
    // Its ping URL and runs went with it.
    expect((await fetch(`${backend.url}${ping}`)).status).toBe(404);
    const { rows } = await backend
      .service('monitors')
      .context.pool.query('SELECT 1 FROM monitors.ping_runs WHERE project_id = $1', [project]);
    expect(rows).toEqual([]);
    await run.stop();
  });
});
