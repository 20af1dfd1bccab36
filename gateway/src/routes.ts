import type { IncomingMessage } from 'node:http';
import type { ServiceName } from '@shiplog/service-kit';
import type { LimitName } from './serving/limits.ts';

/**
 * The `/api` surface, one route a line: who answers it, and the rules every call to it follows
 * whichever way it is served. A service's route is forwarded by the lean service path (forward.ts) with
 * the `/api` prefix removed; a gateway action is answered by the Express pipeline (app.ts) because it
 * reads or changes the session. Either way, a route that is not `public` answers 401 without a session,
 * a write from a foreign Origin answers 403, a write's position goes back as a cookie and later reads
 * wait for it, and every error has the one error body. The first line that matches takes the call;
 * anything else under `/api` is a 404. Adding a route to the product is one line here plus its handler.
 */
export const apiRoutes = [
  // The gateway's own: the session and the current user.
  { path: '/api/register', methods: ['POST'], gateway: 'register', public: true, limit: 'register' },
  { path: '/api/login', methods: ['POST'], gateway: 'login', public: true },
  { path: '/api/logout', methods: ['POST'], gateway: 'logout', public: true },
  // Whose a token is (`shiplog whoami`): a token may ask too.
  { path: '/api/user', methods: ['GET', 'HEAD'], gateway: 'user', token: true },
  // Ends the user's other sessions, so it is the gateway's.
  { path: '/api/user/change-password', methods: ['POST'], gateway: 'changePassword' },
  // The password again, before a sensitive change (a route marked `recentAuth`): the session is then recent.
  { path: '/api/reauth', methods: ['POST'], gateway: 'reauth' },
  { path: '/api/user', methods: ['DELETE'], gateway: 'deleteAccount', recentAuth: ['DELETE'] },
  // The account's signed-in sessions (Settings › Sessions): list them, end one, end all but this one.
  { path: '/api/sessions', methods: ['GET', 'HEAD'], gateway: 'sessions' },
  { path: '/api/sessions/end-others', methods: ['POST'], gateway: 'endOtherSessions' },
  { path: '/api/sessions/:sessionId', methods: ['DELETE'], gateway: 'endSession' },
  // Push reminders turned on in this browser are kept with this session, and end with it (push-devices.ts).
  { path: '/api/reminders/push/subscriptions', methods: ['POST'], gateway: 'turnPushOn' },
  // Every session of the deleted user ends with it.
  { path: '/api/admin/users/:userId', methods: ['DELETE'], gateway: 'deleteUser' },
  // The dashboard's data in one round trip (graphql.ts reads its own body), and answers a signed-out
  // caller itself: a 401 with a GraphQL error body, which GraphQL clients read.
  { path: '/api/graphql', methods: ['GET', 'POST'], gateway: 'graphql', public: true, limit: 'graphql' },
  // Server-sent events: what changed in the user's data, as it changes (live.ts).
  { path: '/api/events', methods: ['GET'], gateway: 'events', limit: 'events' },
  // Everything the user keeps, as a file (export.ts): gathered from three services; `shiplog export`
  // asks with a token.
  { path: '/api/export', methods: ['GET'], gateway: 'exportData', limit: 'export', token: true },
  // A public profile and its public projects (public-profile.ts): readable signed out, at /u/{username}.
  {
    path: '/api/public/users/:username',
    methods: ['GET'],
    gateway: 'publicProfile',
    public: true,
    limit: 'publicRead',
  },
  // A public status page (public-profile.ts): the monitors of the public projects, readable signed out.
  {
    path: '/api/public/users/:username/status',
    methods: ['GET'],
    gateway: 'publicStatus',
    public: true,
    limit: 'publicRead',
  },
  // A public project's README badges (badges.ts): uptime.svg, last-deploy.svg, version.svg.
  {
    path: '/api/badges/:username/:projectId/:badge',
    methods: ['GET'],
    gateway: 'badge',
    public: true,
    limit: 'publicRead',
  },
  // This surface as an OpenAPI 3.1 document (openapi/), for clients and the reference page.
  { path: '/api/openapi.json', methods: ['GET', 'HEAD'], gateway: 'openapi', public: true },
  // An export file back in: up to 20 MB, where every other body stops at 100 kB.
  { path: '/api/import', methods: ['POST'], gateway: 'importData', bodyLimit: '20mb', limit: 'import' },

  // Checkout, the portal and cancelling call Stripe.
  { pattern: /^\/api\/subscription(\/|$)/, service: 'billing', timeoutMs: 60_000 },
  { pattern: /^\/api\/admin\/users\/[^/]+\/(subscription|extend-trial)$/, service: 'billing' },
  // Stripe's deliveries carry no session: the signature over the raw body (passed on untouched) is the credential.
  { pattern: /^\/api\/stripe\/webhook$/, methods: ['POST'], service: 'billing', public: true },
  { pattern: /^\/api\/stripe\//, service: 'billing', timeoutMs: 60_000 },
  { pattern: /^\/api\/admin\/users(\/summary)?$/, methods: ['GET', 'HEAD'], service: 'identity' },
  { pattern: /^\/api\/admin\/contact-messages(\/|$)/, service: 'identity' },
  // A project's monitors, and every monitor of the account (its state on the dashboard); adding and
  // changing one are limited.
  { pattern: /^\/api\/projects\/[^/]+\/monitors$/, methods: ['POST'], service: 'monitors', limit: 'monitorWrite' },
  { pattern: /^\/api\/projects\/[^/]+\/monitors$/, service: 'monitors' },
  { pattern: /^\/api\/monitors\/[^/]+$/, methods: ['PATCH'], service: 'monitors', limit: 'monitorWrite' },
  { pattern: /^\/api\/monitors(\/|$)/, service: 'monitors' },
  // Where alerts go besides email; a test sends one out at once.
  {
    pattern: /^\/api\/alert-channels\/[^/]+\/test$/,
    methods: ['POST'],
    service: 'monitors',
    limit: 'outbound',
    timeoutMs: 60_000,
  },
  { pattern: /^\/api\/alert-channels(\/|$)/, service: 'monitors' },
  // The project routes take a personal API token too (`Authorization: Bearer`): the CLI, CI.
  { pattern: /^\/api\/projects\/[^/]+\/activities$/, methods: ['GET', 'HEAD'], service: 'activity', token: true },
  // A project's deploy webhook URL is a credential of its own: a session only, and a recent one to make it.
  { pattern: /^\/api\/projects\/[^/]+\/deploy-hook$/, service: 'projects', recentAuth: ['POST'] },
  // Likewise its cron ping URL.
  { pattern: /^\/api\/projects\/[^/]+\/ping$/, service: 'monitors', recentAuth: ['POST'] },
  // A project's change or deletion may take it off its owner's public pages.
  {
    pattern: /^\/api\/projects\/[^/]+$/,
    methods: ['PUT', 'DELETE'],
    service: 'projects',
    token: true,
    publicPages: true,
  },
  { pattern: /^\/api\/projects(\/|$)/, service: 'projects', token: true },
  // A project's deploy webhook: platforms post without a session; the secret in the path is the credential.
  {
    pattern: /^\/api\/hooks\/deploy\/[^/]+$/,
    secret: '/api/hooks/deploy/:secret',
    methods: ['POST'],
    service: 'projects',
    public: true,
    limit: 'deployHook',
  },
  // A project's cron ping URL: cron jobs call it without a session, GET or POST alike (curl, wget).
  {
    pattern: /^\/api\/ping\/[^/]+(\/(start|fail))?$/,
    secret: '/api/ping/:secret',
    methods: ['GET', 'POST'],
    service: 'monitors',
    public: true,
    limit: 'ping',
  },
  { pattern: /^\/api\/activities$/, methods: ['POST'], service: 'projects', token: true },
  { pattern: /^\/api\/activities$/, methods: ['GET', 'HEAD'], service: 'activity', token: true },
  // The dashboard's charts: shipping per week and monthly cost, counted in the browser's time zone.
  { pattern: /^\/api\/dashboard\/charts$/, methods: ['GET', 'HEAD'], service: 'activity' },
  // A test push to each of the user's devices: calls to the push services.
  { pattern: /^\/api\/reminders\/push\/test$/, methods: ['POST'], service: 'reminders', limit: 'pushTest' },
  { pattern: /^\/api\/reminders(\/|$)/, service: 'reminders' },
  // The assistant; with `Accept: text/event-stream` its answer streams through as it is written.
  { pattern: /^\/api\/chat$/, methods: ['POST'], service: 'chat', limit: 'chat', timeoutMs: 120_000 },
  { pattern: /^\/api\/chat(\/usage)?$/, service: 'chat' },
  // Calls to the user's domain API: listing its domains and importing them, testing and diagnosing it.
  {
    pattern: /^\/api\/integrations\/[^/]+\/(projects|import)$/,
    service: 'integrations',
    limit: 'outbound',
    timeoutMs: 120_000,
  },
  { pattern: /^\/api\/integrations(\/[^/]+)?$/, service: 'integrations' },
  {
    pattern: /^\/api\/integration\/(test|diagnostics)$/,
    methods: ['POST'],
    service: 'integrations',
    limit: 'outbound',
    timeoutMs: 60_000,
  },
  // The profile's visibility and fields are what its public pages show.
  { pattern: /^\/api\/profile$/, service: 'identity', publicPages: true },
  // Administrators' messages: everyone reads them, so everyone's reads wait for the latest change.
  { pattern: /^\/api\/admin\/comments(\/|$)/, service: 'identity', shared: 'admin-comments' },
  { pattern: /^\/api\/contact-admin$/, service: 'identity', limit: 'contactAdmin' },
  // Changes the address reminders and account mail go to; a new address is mailed a link to prove it.
  { pattern: /^\/api\/user\/account-info$/, service: 'identity', recentAuth: ['POST'], limit: 'verifyEmail' },
  // A new link to prove the address; and the link's page, signed in or not (its secret is the credential).
  { pattern: /^\/api\/user\/email-verification$/, methods: ['POST'], service: 'identity', limit: 'verifyEmail' },
  {
    pattern: /^\/api\/email-verification$/,
    methods: ['POST'],
    service: 'identity',
    public: true,
    limit: 'publicRead',
  },
  { pattern: /^\/api\/notifications\/settings$/, service: 'identity' },
  // The user's API tokens, managed with a session only.
  { pattern: /^\/api\/tokens$/, methods: ['GET', 'HEAD', 'POST'], service: 'identity', recentAuth: ['POST'] },
  { pattern: /^\/api\/tokens\/[^/]+$/, methods: ['DELETE'], service: 'identity' },
  // The private calendar feed: the secret in the path is the credential, calendar apps have no session.
  {
    pattern: /^\/api\/calendar\/[^/]+\.ics$/,
    secret: '/api/calendar/:secret',
    methods: ['GET', 'HEAD'],
    service: 'reminders',
    public: true,
    limit: 'publicRead',
  },
] as const satisfies readonly (ServiceRoute | GatewayRouteEntry)[];

interface RouteRules {
  /** Only these methods (the same path can belong to two owners: reads to activity, writes to projects). */
  methods?: readonly string[];
  /** Answered without a session. */
  public?: boolean;
  /** The limit it counts against (limits.ts): routes that cost real work. */
  limit?: LimitName;
  /**
   * These methods need the password typed in this session within the last ten minutes (sessions.ts
   * `RECENT_AUTH_MS`); otherwise a 403 `REAUTH_REQUIRED`, and the app asks for it (`/api/reauth`).
   */
  recentAuth?: readonly string[];
  /** A personal API token (`Authorization: Bearer`) may stand for the session here; nowhere else. */
  token?: boolean;
  /**
   * The path as a template when a segment of it is a credential, named `:secret`: wherever a path is
   * written down (logs, spans) that segment is redacted (`declareSecretPaths`).
   */
  secret?: string;
}

export interface ServiceRoute extends RouteRules {
  /** The paths it takes: a service answers each with its own routes, or 404. */
  pattern: RegExp;
  service: ServiceName;
  /**
   * Writes here change what the user's public pages show (a profile or a project made private): no
   * gateway serves a page it held from before the write (`PublicHolds`).
   */
  publicPages?: boolean;
  /**
   * Writes here change what every user reads here: each write's position is kept for everyone
   * (`SharedPositions`), and every read waits for it, as for the reader's own writes.
   */
  shared?: string;
  /**
   * How long the service may take to begin its answer, and between two parts of it, when longer than
   * the 10 s every other call gets (CALL_TIMEOUT_MS): a model's reply, a registrar's list of domains.
   */
  timeoutMs?: number;
}

interface GatewayRouteEntry extends RouteRules {
  /** The one path it answers, Express style: `:name` is a path segment the action gets as `params.name`. */
  path: string;
  methods: readonly string[];
  gateway: string;
  /** The largest JSON body it takes, when not the 100 kB every other action takes. */
  bodyLimit?: string;
}

export interface GatewayRoute extends GatewayRouteEntry {
  /** `path` as a pattern, its `:name` segments as named groups. */
  pattern: RegExp;
}

export type ApiRoute = ServiceRoute | GatewayRoute;

/** The gateway's actions, by name: app.ts must give a handler for each. */
export type GatewayAction = Extract<(typeof apiRoutes)[number], { gateway: string }>['gateway'];

/** An Express-style path (`/api/admin/users/:userId`) as an exact pattern with named groups. */
export function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? `(?<${segment.slice(1)}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('\\/');
  return new RegExp(`^${source}$`);
}

/**
 * A path template with each `:name` segment filled in; by default with a stand-in that every segment
 * pattern of the table accepts (the calendar feed's wants a file name ending `.ics`).
 */
export function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x.ics');
}

/** The table as routes are matched: every gateway action with its path's pattern. */
export const routes: readonly ApiRoute[] = (apiRoutes as readonly (ServiceRoute | GatewayRouteEntry)[]).map((r) =>
  'gateway' in r ? { ...r, pattern: pathPattern(r.path) } : r,
);

/**
 * The route of a call, or none. Only a path in its one canonical form has a route: each variant a
 * client or an attacker can spell (a trailing or doubled slash, a dot segment, an encoded slash or an
 * encoded letter, a `#` or a backslash) is a 404 on both serving paths. Matching is case-sensitive,
 * as the services' routers are: `…/DEPLOY-HOOK` is not `…/deploy-hook` anywhere. Without this, a
 * variant that misses its own line falls to a broader one and is forwarded past its rules.
 */
export function routeFor(method: string, url: string): ApiRoute | undefined {
  const path = url.split('?')[0]!;
  if (!isCanonicalPath(path)) return undefined;
  return routes.find((r) => r.pattern.test(path) && (!r.methods || r.methods.includes(method)));
}

/** Characters a path segment holds as they are (RFC 3986 `pchar`, with `%` for an encoding). */
const pathCharacters = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/**
 * Encodings a canonical path never holds: of an unreserved character (its canonical form is the
 * character itself, RFC 3986 §6.2.2.2), of a separator (`/`, `\`, `?`, `#`), of a control character.
 */
const nonCanonicalEncoding =
  /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DdEeFf3]|5[Ff]|7[Ee]|5[Cc]|3[Ff]|[01][0-9A-Fa-f]|7[Ff])/;

/** Whether a path is in the one form the route table matches (see `routeFor`). */
export function isCanonicalPath(path: string): boolean {
  if (!path.startsWith('/') || !pathCharacters.test(path)) return false;
  if (/%(?![0-9A-Fa-f]{2})/.test(path) || nonCanonicalEncoding.test(path)) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const matched = new WeakMap<IncomingMessage, ApiRoute | null>();

/**
 * A request's route, matched once for everyone who asks (the service path, the actions, the spans,
 * the access log's metrics): the table is read once per request. Express's `originalUrl` when mounted.
 */
export function routeOf(req: IncomingMessage): ApiRoute | undefined {
  let route = matched.get(req);
  if (route === undefined) {
    route = routeFor(req.method ?? 'GET', (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/') ?? null;
    matched.set(req, route);
  }
  return route ?? undefined;
}

export const isServiceRoute = (route: ApiRoute): route is ServiceRoute => 'service' in route;

/** The templates of the routes whose path holds a credential (`secret`). */
export const secretPaths: readonly string[] = routes.flatMap((route) => (route.secret ? [route.secret] : []));
