import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { alertMessage, deliveryRequest, signature } from './webhooks.ts';

const opened = {
  id: '01900000-0000-7000-8000-000000000001',
  type: 'IncidentOpened' as const,
  data: {
    incidentId: '01900000-0000-7000-8000-000000000002',
    monitorId: '01900000-0000-7000-8000-000000000003',
    userId: '01900000-0000-7000-8000-000000000004',
    projectId: '01900000-0000-7000-8000-000000000005',
    projectName: 'Weather API',
    url: 'https://weather.example/health',
    cause: 'HTTP 503',
    failures: 2,
    startedAt: '2026-11-26T12:04:00.000Z',
    at: '2026-11-26T12:05:00.000Z',
  },
};
const now = new Date('2026-11-26T12:05:01Z');
const message = alertMessage(opened, 'https://shiplog.example/');

describe('an alert delivered by webhook', () => {
  it('is Shiplog’s JSON, signed over its timestamp and body', () => {
    const request = deliveryRequest(
      { kind: 'webhook', url: 'https://hooks.example/in', secret: 's3cret' },
      message,
      now,
    );
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      id: opened.id,
      type: 'incident.opened',
      title: 'Down: Weather API (HTTP 503)',
      link: `https://shiplog.example/projects/${opened.data.projectId}`,
      data: { cause: 'HTTP 503', failures: 2 },
    });
    const t = Math.floor(now.getTime() / 1000);
    const expected = createHmac('sha256', 's3cret').update(`${t}.${request.body}`).digest('hex');
    expect(request.headers['shiplog-signature']).toBe(`t=${t},v1=${expected}`);
    expect(signature('s3cret', request.body, now)).toBe(request.headers['shiplog-signature']);
    expect(request.headers['shiplog-delivery']).toBe(opened.id);
  });

  it('takes Slack’s, Discord’s and ntfy’s shapes', () => {
    const slack = deliveryRequest(
      { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X', secret: null },
      message,
      now,
    );
    expect(JSON.parse(slack.body).text).toMatch(
      /^\*Down: Weather API \(HTTP 503\)\*\n.+\n<https:\/\/shiplog\.example\/projects\/.+\|Open in Shiplog>$/,
    );
    const discord = deliveryRequest(
      { kind: 'discord', url: 'https://discord.com/api/webhooks/1/x', secret: null },
      message,
      now,
    );
    expect(JSON.parse(discord.body)).toMatchObject({
      content: expect.stringMatching(/^\*\*Down: Weather API/),
      allowed_mentions: { parse: [] },
    });
    const ntfy = deliveryRequest({ kind: 'ntfy', url: 'https://ntfy.sh/my-alerts', secret: null }, message, now);
    expect(ntfy.url.toString()).toBe('https://ntfy.sh/');
    expect(JSON.parse(ntfy.body)).toMatchObject({
      topic: 'my-alerts',
      title: 'Down: Weather API (HTTP 503)',
      priority: 4,
      tags: ['rotating_light'],
    });
  });
});
