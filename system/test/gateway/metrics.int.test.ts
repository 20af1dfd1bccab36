/**
 * Every process's `/metrics`, scraped and parsed as Prometheus does: requests by route template (never
 * a path), event store appends, and a consumer's backlog that grows while it is held and drains once it
 * goes on; behind a bearer token when METRICS_TOKEN is set.
 */

import { type Backend, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { histogramCount, metricValue, scrapeMetrics } from '@shiplog/testing/prometheus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

describe('/metrics', () => {
  it('counts and times requests by route template, at the gateway and in the service', async () => {
    const { client } = await backend.signUp('metrics');
    const created = await client.post('/api/projects', { name: 'Counted' });
    expect(created.status).toBe(201);
    expect((await client.get(`/api/projects/${created.body.id}`)).status).toBe(200);
    expect((await client.get('/api/no-such-route')).status).toBe(404);

    const gateway = await scrapeMetrics(backend.url);
    expect(
      metricValue(gateway, 'shiplog_http_requests_total', {
        method: 'POST',
        route: 'service:projects',
        status: '201',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(gateway, 'shiplog_http_requests_total', { method: 'POST', route: '/api/register', status: '201' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(gateway, 'shiplog_http_requests_total', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      histogramCount(gateway, 'shiplog_http_request_duration_seconds', { method: 'POST', route: '/api/register' }),
    ).toBeGreaterThanOrEqual(1);
    // No label holds an id or a path a client made up.
    const routes = gateway.families
      .find((f) => f.name === 'shiplog_http_requests_total')!
      .metrics.map((m) => m.labels?.route ?? '');
    expect(routes.filter((route) => /[0-9a-f]{8}-|no-such-route/.test(route))).toEqual([]);

    const projects = await scrapeMetrics(backend.service('projects').url);
    expect(
      metricValue(projects, 'shiplog_http_requests_total', { method: 'POST', route: '/projects', status: '201' }),
    ).toBeGreaterThanOrEqual(1);
    expect(metricValue(projects, 'shiplog_event_store_append_duration_seconds')).toBeGreaterThanOrEqual(1);
    expect(metricValue(projects, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it("shows a consumer's backlog grow under a burst while it is held, and drain when it goes on", async () => {
    const { client } = await backend.signUp('lag');
    const activity = backend.service('activity').url;
    const pending = async () =>
      metricValue(await scrapeMetrics(activity), 'shiplog_consumer_pending_events', {
        consumer: 'activity-timeline',
      });
    await waitUntil(async () => (await pending()) === 0, 5000, 'the timeline to be caught up');
    expect(metricValue(await scrapeMetrics(activity), 'shiplog_parked_events', { consumer: 'activity-timeline' })).toBe(
      0,
    );

    const held = await backend.holdConsumer('activity', 'activity-timeline');
    try {
      for (let i = 0; i < 8; i += 1)
        expect((await client.post('/api/projects', { name: `Burst ${i}` })).status).toBe(201);
      await waitUntil(async () => ((await pending()) ?? 0) >= 8, 5000, 'the backlog to show');
    } finally {
      await held.release();
    }
    await waitUntil(async () => (await pending()) === 0, 10_000, 'the backlog to drain');
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const token = 'metrics-token-for-the-test';
    const replica = await backend.startReplica({ METRICS_TOKEN: token });
    expect((await fetch(`${replica}/metrics`)).status).toBe(401);
    expect((await fetch(`${replica}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong' } })).status).toBe(
      401,
    );
    expect(
      (await scrapeMetrics(replica, { authorization: `Bearer ${token}` })).families.some(
        (f) => f.name === 'shiplog_http_requests_total',
      ),
    ).toBe(true);
  });
});
