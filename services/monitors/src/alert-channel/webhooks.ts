import { createHmac } from 'node:crypto';
import type { AlertChannelKind } from '@shiplog/schemas';
import { type AlertEvent, alertLines, projectLink } from './compose.ts';

/** One alert, whatever it is sent by: what it is, in words, and its facts. */
export interface AlertMessage {
  /** The event's id (or the test's): a receiver can tell a repeat delivery by it. */
  id: string;
  type:
    | 'incident.opened'
    | 'incident.repeated'
    | 'incident.closed'
    | 'certificate.expiring'
    | 'domain.expiring'
    | 'workflow.failed'
    | 'test';
  at: string;
  title: string;
  text: string;
  link: string;
  data: Record<string, unknown>;
}

const typeOf = (event: AlertEvent): AlertMessage['type'] =>
  event.type === 'WorkflowRunFailed'
    ? 'workflow.failed'
    : event.type === 'IncidentOpened'
      ? 'incident.opened'
      : event.type === 'IncidentRepeated'
        ? 'incident.repeated'
        : event.type === 'IncidentClosed'
          ? 'incident.closed'
          : event.data.of === 'domain'
            ? 'domain.expiring'
            : 'certificate.expiring';

export function alertMessage(event: AlertEvent & { id: string }, appUrl: string): AlertMessage {
  const [title, text] = alertLines(event);
  const { at, ...data } = event.data;
  return { id: event.id, type: typeOf(event), at, title, text, link: projectLink(appUrl, data.projectId), data };
}

/** What the channel's Test button sends. */
export function testMessage(id: string, channelName: string, appUrl: string, at: Date): AlertMessage {
  return {
    id,
    type: 'test',
    at: at.toISOString(),
    title: 'Test alert from Shiplog',
    text: `This is a test of the alert channel "${channelName}". When a monitor goes down, its alerts come here.`,
    link: `${appUrl.replace(/\/$/, '')}/settings`,
    data: {},
  };
}

/** The `Shiplog-Signature` of a generic webhook's body: `t=<unix seconds>,v1=<HMAC-SHA256 of "t.body">`. */
export function signature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * The request that delivers a message to a channel, in the shape its receiver reads: Shiplog's JSON
 * (signed), a Slack or Discord incoming webhook's message, or an ntfy publish (JSON to the server's
 * root, so a title in any language arrives whole).
 */
export function deliveryRequest(
  channel: { kind: AlertChannelKind; url: string; secret: string | null },
  message: AlertMessage,
  now: Date,
): { url: URL; headers: Record<string, string>; body: string } {
  const json = { 'content-type': 'application/json', 'user-agent': 'Shiplog-Alerts/1.0' };
  switch (channel.kind) {
    case 'webhook': {
      const body = JSON.stringify(message);
      return {
        url: new URL(channel.url),
        headers: {
          ...json,
          'shiplog-event': message.type,
          'shiplog-delivery': message.id,
          ...(channel.secret ? { 'shiplog-signature': signature(channel.secret, body, now) } : {}),
        },
        body,
      };
    }
    case 'slack':
      return {
        url: new URL(channel.url),
        headers: json,
        body: JSON.stringify({ text: `*${message.title}*\n${message.text}\n<${message.link}|Open in Shiplog>` }),
      };
    case 'discord':
      return {
        url: new URL(channel.url),
        headers: json,
        body: JSON.stringify({
          content: `**${message.title}**\n${message.text}\n${message.link}`,
          allowed_mentions: { parse: [] },
        }),
      };
    case 'ntfy': {
      const url = new URL(channel.url);
      const topic = url.pathname.replace(/^\/+|\/+$/g, '');
      return {
        url: new URL('/', url),
        headers: json,
        body: JSON.stringify({
          topic,
          title: message.title,
          message: message.text,
          click: message.link,
          tags: [message.type === 'incident.closed' ? 'white_check_mark' : 'rotating_light'],
          priority: message.type === 'incident.opened' ? 4 : 3,
        }),
      };
    }
  }
}
