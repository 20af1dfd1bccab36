import { type Backend, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const DAY = 86_400_000;
/** `YYYY-MM` of `date` in UTC. */
const monthOf = (date: Date) => date.toISOString().slice(0, 7);
/** The 12 months ending with `now`'s, oldest first. */
const twelveMonths = (now: Date) =>
  Array.from({ length: 12 }, (_, i) =>
    monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11 + i, 1))),
  );

describe('the dashboard charts', () => {
  it('counts deployments and releases per week, and each project’s monthly cost as it changed', async () => {
    const ada = await backend.signUp('charts');
    const now = new Date();
    const threeWeeksAgo = new Date(now.getTime() - 21 * DAY).toISOString();
    const fiveMonthsAgo = new Date(now.getTime() - 150 * DAY);
    // A project brought in with its history: created five months ago at $10 a month, shipped three weeks ago.
    const imported = await ada.client.post('/api/import', {
      format: 'shiplog-export',
      version: 1,
      projects: [
        {
          id: 'p1',
          name: 'Weather API',
          costEstimate: 1000,
          createdAt: fiveMonthsAgo.toISOString(),
          updatedAt: fiveMonthsAgo.toISOString(),
        },
      ],
      reminders: [],
      activities: [
        {
          id: 'a1',
          projectId: 'p1',
          eventType: 'deployment',
          action: 'deployed',
          details: 'Deployed: Weather API',
          timestamp: threeWeeksAgo,
        },
        {
          id: 'a2',
          projectId: 'p1',
          eventType: 'version_release',
          action: 'released',
          details: 'Released: Weather API',
          timestamp: threeWeeksAgo,
        },
        {
          id: 'a3',
          projectId: 'p1',
          eventType: 'backup_created',
          action: 'created',
          details: 'Backup: Weather API',
          timestamp: threeWeeksAgo,
        },
      ],
    });
    expect(imported.status).toBe(201);
    const [weather] = (await ada.client.get('/api/projects')).body;
    // Today: it costs $25 a month from now on, and ships again; a project without an estimate shows no cost.
    expect((await ada.client.request('PUT', `/api/projects/${weather.id}`, { costEstimate: 2500 })).status).toBe(200);
    expect(
      (await ada.client.post(`/api/projects/${weather.id}/deployment`, { environment: 'production' })).status,
    ).toBe(201);
    await ada.client.post('/api/projects', { name: 'Free Thing' });
    const renamed = await ada.client.request('PUT', `/api/projects/${weather.id}`, { name: 'Weather Service' });
    expect(renamed.status).toBe(200);

    const charts = await ada.client.get('/api/dashboard/charts?tz=UTC');
    expect(charts.status).toBe(200);
    const { shipping, costs } = charts.body;
    expect(shipping.weeks).toHaveLength(12);
    // Weeks start on Monday.
    for (const week of shipping.weeks) expect(new Date(`${week}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(shipping.deployments).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1]);
    expect(shipping.releases).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);

    const months = twelveMonths(now);
    expect(costs.months).toEqual(months);
    const created = months.indexOf(monthOf(fiveMonthsAgo));
    expect(costs.projects).toEqual([
      {
        projectId: weather.id,
        name: 'Weather Service',
        costs: months.map((_, i) => (i === 11 ? 2500 : i >= created ? 1000 : 0)),
      },
    ]);

    // Another user sees none of it; a deleted project leaves the chart.
    const grace = await backend.signUp('charts2');
    const empty = (await grace.client.get('/api/dashboard/charts')).body;
    expect(empty).toMatchObject({ timeZone: 'UTC', costs: { months, projects: [] } });
    expect(empty.shipping.deployments).toEqual(Array(12).fill(0));
    expect((await ada.client.request('DELETE', `/api/projects/${weather.id}`)).status).toBe(204);
    expect((await ada.client.get('/api/dashboard/charts')).body.costs.projects).toEqual([]);
  });

  it('counts in the browser’s time zone, and refuses one that is not', async () => {
    const user = await backend.signUp('chartszone');
    const berlin = await user.client.get('/api/dashboard/charts?tz=Europe/Berlin');
    expect(berlin.status).toBe(200);
    expect(berlin.body.timeZone).toBe('Europe/Berlin');
    for (const tz of ['Mars/Olympus_Mons', "UTC'; drop table x", 'x'.repeat(80)]) {
      const bad = await user.client.get(`/api/dashboard/charts?tz=${encodeURIComponent(tz)}`);
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors).toEqual({ tz: ['tz must be a time zone name such as Europe/Berlin'] });
    }
  });
});
