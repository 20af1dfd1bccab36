import type { WorkspaceRole } from '@shiplog/schemas';
import type { z } from 'zod';

/**
 * One declaration per route: everything known of a call before its handler runs, written once,
 * beside the handler that answers it, in the service that owns it. From it come the service's router
 * (its method and path, who may call it, its input parsed: `serveRoutes`), the gateway's route table
 * and its limits (gateway/src/routes.ts), the OpenAPI document (gateway/src/openapi/) and the
 * authorization matrix the tests generate. A route is keyed `METHOD /path`, the path as the service's
 * Express router reads it (`/projects/:id`); the gateway serves it at `/api` + path unless it is
 * `internal`. Declarations import schemas and nothing of a service's code, so the gateway reads every
 * service's without loading one (`@shiplog/<service>/routes`).
 */
export interface RouteDeclaration {
  /** What it does, in a line (the OpenAPI summary). */
  summary: string;
  /** Anything a reader should know beyond the summary. */
  description?: string;
  /** Where the OpenAPI document lists it. Not for an internal route. */
  tag?: ApiTag;
  /**
   * Who may call it: anyone (`public`: no session needed), a signed-in user, or an administrator.
   * Checked by the gateway before any service is called, and by the service again from the gateway's
   * signed caller, so a gateway mistake is not enough.
   */
  access: 'public' | 'user' | 'admin';
  /** Only the gateway calls it, for an action of its own: not served under `/api`. */
  internal?: true;
  /** A personal API token (`Authorization: Bearer`) may stand for the session here; nowhere else. */
  token?: true;
  /**
   * The least role the caller needs on the project the route acts on: `viewer` reads it, `member`
   * changes it and adds to it. Its maker holds every role on a personal project; on a team
   * workspace's, the caller has their role there. The handler names the project (`parsed.project(id)`),
   * which answers 404 when the caller has no role on it (non-members learn nothing) and 403
   * `FORBIDDEN` when a lesser one, before anything changes.
   */
  project?: WorkspaceRole;
  /**
   * Needs the password typed in this session within the last ten minutes (the gateway's
   * `RECENT_AUTH_MS`); otherwise a 403 `REAUTH_REQUIRED`, and the app asks for it. Never a token.
   */
  recentAuth?: true;
  /** The limit it counts against (`limitDefaults`): every route that costs real work names one. */
  limit?: LimitName;
  /** Its query string, parsed before the handler reads it (`input.query`). */
  query?: z.ZodObject;
  /** The JSON body it reads, parsed before the handler reads it (`input.body`). */
  body?: z.ZodType;
  /** The body reaches the handler as the bytes sent (a Buffer), unparsed: a signed webhook. */
  rawBody?: true;
  /** The largest body it takes, when not the 100 kB (gateway) or 1 MB (service) every other takes. */
  bodyLimit?: string;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 202 | 204;
  /** What a success answers: a schema (JSON), or another media type described in words. */
  answer?: z.ZodType | { type: string; description: string };
  /** Refusals it answers in a shape of its own rather than the error body, by status. */
  refusals?: Record<number, string>;
  /** A create that takes an `Idempotency-Key`: the same key makes one record. */
  idempotent?: true;
  /**
   * How long the service may take to begin its answer, and between two parts of it, when longer than
   * the 10 s every other call gets: a model's reply, a registrar's list of domains.
   */
  timeoutMs?: number;
  /**
   * A write here changes what the user's public pages show (a profile or a project made private): no
   * gateway serves a page it held from before the write.
   */
  publicPages?: true;
  /**
   * A write here changes what every user reads under this name: each write's position is kept for
   * everyone, and every read waits for it, as for the reader's own writes.
   */
  shared?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RouteKey = `${HttpMethod} /${string}`;
export type RouteDeclarations = Record<RouteKey, RouteDeclaration>;

/** A service's (or the gateway's) routes, as declared: kept as written, so each handler's input is typed. */
export const declareRoutes = <const R extends RouteDeclarations>(routes: R): R => routes;

/** A declared route's method and path. */
export function routeKeyParts(key: string): { method: HttpMethod; path: string } {
  const [method, path] = key.split(' ') as [HttpMethod, string];
  return { method, path };
}

/**
 * The path's segments that are credentials: a parameter named `secret` (a deploy webhook's, a ping's,
 * the calendar feed's). Wherever a path is written down (logs, spans) that segment is redacted.
 */
export const holdsSecret = (path: string): boolean => /\/:secret(\/|$)/.test(path);

/** The OpenAPI document's groups. */
export const apiTags = {
  Account: 'Signing up and in, the current user, the password and the account itself.',
  Sessions: 'The account’s signed-in sessions.',
  Projects: 'Projects: status, checklist, cost, links.',
  Workspaces: 'Team workspaces: members, roles and invites.',
  Timeline: 'Backups, deployments, releases and quick updates: the activity timeline.',
  Reminders: 'Dated reminders, by email, push and calendar.',
  Dashboard: 'The dashboard’s data and charts.',
  Monitors: 'Uptime, cron, expectation and domain monitors, their incidents and alert channels.',
  Tokens: 'Personal API tokens for the CLI and CI.',
  Settings: 'Profile, contact details and notification settings.',
  Billing: 'The subscription and Stripe checkout.',
  Assistant: 'The AI assistant.',
  Integrations: 'The domain API integration.',
  Data: 'Export and import of everything the user keeps.',
  Public: 'Public profiles, status pages and badges, readable signed out.',
  Admin: 'Administrators only.',
  Meta: 'This document.',
} as const;
export type ApiTag = keyof typeof apiTags;

/**
 * Every limit on the routes that cost real work, by the name a declaration gives it (sign-in has its
 * own, the gateway's login-limiter.ts). The gateway applies them, on either serving path, before any
 * service is called, counted in Redis so every replica shares the counts: per address for a
 * signed-out route, per user for a signed-in one, and, for the two long-running kinds (imports and
 * live streams), how many a user has open at once (gateway/src/serving/limits.ts, which reads
 * `RATE_LIMIT_<NAME>` and `RATE_LIMITS=off`).
 */
export const limitDefaults = {
  /** An argon2 hash each, and a trial with AI messages. */
  register: { per: 'address', points: 10, seconds: 3600 },
  /** Up to 20 MB parsed on the gateway, thousands of commands; one at a time. */
  import: { per: 'user', points: 20, seconds: 3600, concurrent: 1 },
  /** Three services read in full. */
  export: { per: 'user', points: 30, seconds: 3600 },
  /** Outbound calls to the user's domain API: test, diagnostics, listing, import. */
  outbound: { per: 'user', points: 60, seconds: 3600 },
  /** The live stream: opens (each may replay what was missed) and streams open at once. */
  events: { per: 'user', points: 120, seconds: 600, concurrent: 10 },
  /** The dashboard's query: up to eight service reads each; the app asks again on every change it hears of. */
  graphql: { per: 'user', points: 600, seconds: 60 },
  /** Public profile pages and the calendar feed: service calls on each view, signed out. */
  publicRead: { per: 'address', points: 300, seconds: 60 },
  /** A deploy platform's deliveries. */
  deployHook: { per: 'address', points: 120, seconds: 60 },
  /** GitHub's webhook deliveries: a signature checked and a record made each (GitHub sends from few addresses). */
  githubHook: { per: 'address', points: 2000, seconds: 60 },
  /** Cron jobs' pings: a write each. */
  ping: { per: 'address', points: 120, seconds: 60 },
  /** Mail to an address being proven: each change of the address, and each new link, sends one. */
  verifyEmail: { per: 'user', points: 10, seconds: 3600 },
  /** A test notification to each of the user's push devices: a push service call each. */
  pushTest: { per: 'user', points: 10, seconds: 3600 },
  /** Messages to the administrators. */
  contactAdmin: { per: 'user', points: 10, seconds: 3600 },
  /** The assistant for paying users (free users have their daily count too): a model call each. */
  chat: { per: 'user', points: 200, seconds: 3600 },
  /** Workspace invites: an email each when sent to an address. */
  invite: { per: 'user', points: 50, seconds: 3600 },
  /** Monitors added and changed: each is a target the server then checks from its own address. */
  monitorWrite: { per: 'user', points: 120, seconds: 3600 },
} as const satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof limitDefaults;

export interface LimitRule {
  per: 'address' | 'user';
  points: number;
  seconds: number;
  concurrent?: number;
}
