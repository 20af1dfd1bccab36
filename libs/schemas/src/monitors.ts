import { z } from 'zod';
import { isHttpUrl } from './integrations.ts';

/**
 * Monitors: a check of what a user shipped, on one of their projects (the monitors service). Shared by
 * the web form and the service, so both refuse the same input with the same messages.
 */
export const MONITOR_URL_MESSAGE = 'Please enter a valid URL including http:// or https://';
export const MONITOR_INTERVAL_MESSAGE = 'Check every 30 seconds to 60 minutes';
export const EXPECTED_STATUSES_MESSAGE = 'Use status codes and ranges, such as 200-299 or 200,301';
/** How many monitors one account may keep. */
export const MAX_MONITORS = 20;
export const monitorIntervals = [30, 60, 300, 600, 1800, 3600] as const;
/** How often an alert is sent again while an incident stays open, in minutes (0: only when it opens and closes). */
export const repeatOptions = [0, 60, 240, 1440] as const;
export const REPEAT_MESSAGE = 'Remind every hour, 4 hours or day, or never';
/**
 * `degraded`: up, but its last answer was slower than the monitor's `maxResponseMs`; `failing`: its
 * last check failed, not yet as many times in a row as open an incident; `unchecked`: its last check
 * was refused (the address is a private one), so nothing is known of it.
 */
export const monitorStates = ['pending', 'up', 'degraded', 'failing', 'down', 'unchecked', 'paused'] as const;
export const MAX_RESPONSE_MESSAGE = 'A slow answer is 100 to 30000 ms, or leave it empty';
/**
 * `http`: a URL checked on a schedule; `backup` / `deployment`: one expected at a cadence (missed work);
 * `domain`: a domain's registration, looked up once a day (RDAP).
 */
export const monitorKinds = ['http', 'backup', 'deployment', 'domain'] as const;
export type MonitorKind = (typeof monitorKinds)[number];
export const EXPECTATION_MESSAGE = 'Expect one every hour to every 30 days';
export const GRACE_MESSAGE = 'Allow up to 7 days of lateness';
export type MonitorState = (typeof monitorStates)[number];

/** `200-299`, `200,301,302`, `200-299,404`: codes from 100 to 599, ranges low to high. */
export function parseExpectedStatuses(text: string): [number, number][] | null {
  const parts = text.split(',').map((p) => p.trim());
  const ranges: [number, number][] = [];
  for (const part of parts) {
    const match = /^(\d{3})(?:-(\d{3}))?$/.exec(part);
    if (!match) return null;
    const low = Number(match[1]);
    const high = Number(match[2] ?? match[1]);
    if (low < 100 || high > 599 || low > high) return null;
    ranges.push([low, high]);
  }
  return ranges.length > 0 ? ranges : null;
}

export const isExpectedStatus = (ranges: [number, number][], status: number): boolean =>
  ranges.some(([low, high]) => status >= low && status <= high);

const monitorFields = {
  url: z
    .string({ error: MONITOR_URL_MESSAGE })
    .trim()
    .max(2000, 'The URL must be at most 2000 characters')
    .refine(isHttpUrl, MONITOR_URL_MESSAGE),
  intervalSeconds: z.coerce
    .number({ error: MONITOR_INTERVAL_MESSAGE })
    .int(MONITOR_INTERVAL_MESSAGE)
    .min(30, MONITOR_INTERVAL_MESSAGE)
    .max(3600, MONITOR_INTERVAL_MESSAGE),
  expectedStatuses: z
    .string({ error: EXPECTED_STATUSES_MESSAGE })
    .trim()
    .max(100, EXPECTED_STATUSES_MESSAGE)
    .refine((v) => parseExpectedStatuses(v) !== null, EXPECTED_STATUSES_MESSAGE),
  keyword: z
    .string({ error: 'The keyword must be text' })
    .trim()
    .max(200, 'The keyword must be at most 200 characters')
    .nullable()
    .transform((v) => (v ? v : null)),
  keywordPresent: z.boolean({ error: 'Say whether the keyword must be present or absent' }),
  failureThreshold: z.coerce
    .number({ error: 'Open an incident after 1 to 10 failed checks in a row' })
    .int('Open an incident after 1 to 10 failed checks in a row')
    .min(1, 'Open an incident after 1 to 10 failed checks in a row')
    .max(10, 'Open an incident after 1 to 10 failed checks in a row'),
  maxResponseMs: z
    .union([z.literal(''), z.null(), z.coerce.number({ error: MAX_RESPONSE_MESSAGE })])
    .transform((v) => (v === '' || v === null ? null : v))
    .refine((v) => v === null || (Number.isInteger(v) && v >= 100 && v <= 30_000), MAX_RESPONSE_MESSAGE),
  repeatMinutes: z.coerce
    .number({ error: REPEAT_MESSAGE })
    .int(REPEAT_MESSAGE)
    .refine((v) => (repeatOptions as readonly number[]).includes(v), REPEAT_MESSAGE),
};

/** A new monitor: the URL, and how often; the rest have defaults (any 2xx or 3xx, 2 failures in a row). */
export const createMonitorSchema = z.object({
  url: monitorFields.url,
  intervalSeconds: monitorFields.intervalSeconds.default(60),
  expectedStatuses: monitorFields.expectedStatuses.default('200-399'),
  keyword: monitorFields.keyword.default(null),
  keywordPresent: monitorFields.keywordPresent.default(true),
  failureThreshold: monitorFields.failureThreshold.default(2),
  repeatMinutes: monitorFields.repeatMinutes.default(0),
  maxResponseMs: monitorFields.maxResponseMs.default(null),
});
export type CreateMonitorInput = z.infer<typeof createMonitorSchema>;

/**
 * Missed work: a backup or a deployment expected every `intervalSeconds`, late by at most
 * `graceSeconds` (a recorded one, from the page, the CLI or a deploy webhook, counts).
 */
export const createExpectationSchema = z.object({
  kind: z.enum(['backup', 'deployment'], { error: 'Expect a backup or a deployment' }),
  intervalSeconds: z.coerce
    .number({ error: EXPECTATION_MESSAGE })
    .int(EXPECTATION_MESSAGE)
    .min(3600, EXPECTATION_MESSAGE)
    .max(30 * 86_400, EXPECTATION_MESSAGE),
  graceSeconds: z.coerce
    .number({ error: GRACE_MESSAGE })
    .int(GRACE_MESSAGE)
    .min(0, GRACE_MESSAGE)
    .max(7 * 86_400, GRACE_MESSAGE)
    .default(7200),
});
export type CreateExpectationInput = z.infer<typeof createExpectationSchema>;

export const DOMAIN_MESSAGE = 'Please enter a domain name, such as example.com';

/** A domain typed by hand: its registration's end is looked up once a day (RDAP), warned of at 14, 7 and 1 days. */
export const createDomainMonitorSchema = z.object({
  kind: z.literal('domain'),
  domain: z
    .string({ error: DOMAIN_MESSAGE })
    .trim()
    .toLowerCase()
    .transform((v) => v.replace(/\.$/, ''))
    .refine(
      (v) => /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(v),
      DOMAIN_MESSAGE,
    ),
});
export type CreateDomainMonitorInput = z.infer<typeof createDomainMonitorSchema>;

/** A change: any of the fields, and `paused` to pause or resume it. */
export const updateMonitorSchema = z.strictObject({
  url: monitorFields.url.optional(),
  intervalSeconds: monitorFields.intervalSeconds.optional(),
  expectedStatuses: monitorFields.expectedStatuses.optional(),
  keyword: monitorFields.keyword.optional(),
  keywordPresent: monitorFields.keywordPresent.optional(),
  failureThreshold: monitorFields.failureThreshold.optional(),
  repeatMinutes: monitorFields.repeatMinutes.optional(),
  maxResponseMs: monitorFields.maxResponseMs.optional(),
  paused: z.boolean({ error: 'paused must be true or false' }).optional(),
});
export type UpdateMonitorInput = z.infer<typeof updateMonitorSchema>;

/** A note on a closed incident: what happened, in a few lines. */
export const incidentNoteSchema = z.object({
  note: z
    .string({ error: 'Write what happened' })
    .trim()
    .min(1, 'Write what happened')
    .max(2000, 'A note must be at most 2000 characters'),
});

/** An incident as the API lists it: open (no `endedAt`) or past, with its note. */
export interface IncidentView {
  id: string;
  cause: string;
  startedAt: string;
  endedAt: string | null;
  note: string | null;
}

/** A monitor as the API answers it. */
export interface MonitorView {
  id: string;
  projectId: string;
  projectName: string;
  kind: MonitorKind;
  /** The URL checked; empty for an expected backup or deployment. */
  url: string;
  intervalSeconds: number;
  graceSeconds: number;
  expectedStatuses: string;
  keyword: string | null;
  keywordPresent: boolean;
  failureThreshold: number;
  /** Minutes between reminders while an incident stays open; 0: none. */
  repeatMinutes: number;
  /** An answer slower than this is `degraded`; null: any time within the check's limit is up. */
  maxResponseMs: number | null;
  state: MonitorState;
  /** Who paused it: its owner, or the plan (the trial or subscription ended); null while it runs. */
  pausedBy: 'user' | 'plan' | null;
  /** Since when a production deployment of its project is under way: its failures open no incident. */
  maintenanceSince: string | null;
  /** Since when it has been in its state. */
  since: string;
  /** The last check, if any: when, whether it passed, in how long, and why not. */
  lastCheck: {
    at: string;
    ok: boolean;
    ms: number | null;
    cause: string | null;
    /** When what it read ends: an https site's certificate, or a domain's registration. */
    expiresAt: string | null;
    /** Not made: the address is a private one (`cause` says which); it counts in no uptime. */
    refused: boolean;
  } | null;
  /** Share of passed checks, null before any check in the window. */
  uptime: { day: number | null; month: number | null };
  openIncident: { id: string; startedAt: string; cause: string } | null;
  createdAt: string;
}

/** A monitor as a project card shows it (its state), and as the bell lists it while an incident is open. */
export type MonitorSummary = Pick<
  MonitorView,
  'id' | 'projectId' | 'projectName' | 'kind' | 'url' | 'intervalSeconds' | 'state' | 'openIncident'
>;

/** How long the status page's bars reach back, a bar a day (UTC). */
export const STATUS_DAYS = 90;

/**
 * A monitor as the public status page shows it: nothing its owner did not mean to publish. A URL
 * shows only its origin (a path or query may carry a secret); an expectation, its cadence.
 */
export interface StatusMonitor {
  id: string;
  projectId: string;
  kind: MonitorKind;
  /** `https://example.com`, or empty for an expected backup or deployment. */
  origin: string;
  intervalSeconds: number;
  state: MonitorState;
  since: string;
  /** Since when a deployment is under way (a maintenance window), or null. */
  maintenanceSince: string | null;
  /** Shares of passed checks: 24 hours, 30 days, 90 days (null before any check in the window). */
  uptime: { day: number | null; month: number | null; quarter: number | null };
  /** One a day, oldest first, ending today: the share of that day's checks that passed (null: none). */
  days: (number | null)[];
}

export interface StatusIncident {
  id: string;
  monitorId: string;
  projectId: string;
  cause: string;
  startedAt: string;
  endedAt: string | null;
  note: string | null;
}

/** What the monitors service gives a status page: the monitors of the projects asked for, and their incidents. */
export interface MonitorsStatus {
  monitors: StatusMonitor[];
  /** The last 90 days', newest first (at most 50). */
  incidents: StatusIncident[];
}

/** A builder's public status page (`/u/{username}/status`): their public projects' monitors. */
export interface PublicStatus extends MonitorsStatus {
  username: string;
  displayName: string;
  projects: { id: string; name: string }[];
  /** When this was read (the page is held briefly, for every reader alike). */
  at: string;
}

/** A team workspace's status page (`/w/{slug}/status`): its public projects' monitors, whoever made them. */
export interface PublicTeamStatus extends MonitorsStatus {
  /** Its name, and its current slug (the page moves to it from one given up). */
  workspace: { name: string; slug: string };
  projects: { id: string; name: string }[];
  at: string;
}

/**
 * Where a user's alerts go besides email: a JSON webhook signed with HMAC-SHA256, a Slack or Discord
 * incoming webhook, or an ntfy topic (its full URL, `https://ntfy.sh/my-topic`).
 */
export const alertChannelKinds = ['webhook', 'slack', 'discord', 'ntfy'] as const;
export type AlertChannelKind = (typeof alertChannelKinds)[number];
/** How many channels one account may keep. */
export const MAX_ALERT_CHANNELS = 10;
export const ALERT_CHANNEL_URL_MESSAGE = 'Please enter a valid URL including http:// or https://';

export const createAlertChannelSchema = z.object({
  kind: z.enum(alertChannelKinds, { error: 'Choose a webhook, Slack, Discord or ntfy' }),
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(100, 'The name must be at most 100 characters'),
  url: z
    .string({ error: ALERT_CHANNEL_URL_MESSAGE })
    .trim()
    .max(2000, 'The URL must be at most 2000 characters')
    .refine(isHttpUrl, ALERT_CHANNEL_URL_MESSAGE),
});
export type CreateAlertChannelInput = z.infer<typeof createAlertChannelSchema>;

/** A channel as its owner's list shows it: its URL only by origin (the rest is a credential). */
export interface AlertChannelView {
  id: string;
  kind: AlertChannelKind;
  name: string;
  origin: string;
  createdAt: string;
}

/** What a new channel's answer adds, once: the secret a generic webhook's deliveries are signed with. */
export interface MadeAlertChannel extends AlertChannelView {
  signingSecret: string | null;
}

/** One alert's delivery to a channel: sent, being retried, or given up after its last try. */
export interface AlertDeliveryView {
  id: string;
  channelId: string;
  channelName: string;
  /** `incident.opened`, `incident.closed`, `certificate.expiring`, `domain.expiring` or `test`. */
  kind: string;
  summary: string;
  state: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}
