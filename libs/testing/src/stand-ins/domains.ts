import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The project's stand-in for an external domain-management API, as ../shared/ARCHITECTURE.md fixes
 * it: `GET {base}/api/domains` answering the account's domains. Each base path is a different
 * behaviour, so one server covers every case:
 *
 * - `/`            the list as a bare array, for `Authorization: Bearer <key>`
 * - `/wrapped`     the list under `domains` (`?under=data`: under `data`)
 * - `/x-api-key`   the list for `X-API-Key: <key>` only (Bearer is 401)
 * - `/query`       the list for the `api_key` query parameter only
 * - `/redirect`    a 302 to `location` (set by the test), e.g. a loopback port
 * - `/slow`        answers after `slowMs`
 * - `/html`        a 200 that is not JSON
 * - `/huge`        a list larger than any sane answer (about 6 MB)
 * - `/fail`        a 500
 *
 * Any other key is a 401, as a real API answers.
 */
export interface DomainStandIn {
  url: string;
  /** `host:port`, for INTEGRATION_ALLOWED_HOSTS. */
  host: string;
  apiKey: string;
  /** The account's domains; a test can replace them. */
  domains: StandInDomain[];
  /** Where `/redirect` sends the caller. */
  redirectTo: string;
  slowMs: number;
  /** Every request: method, path with query, and its headers. */
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  stop(): Promise<void>;
}

export interface StandInDomain {
  id: number | string;
  domainName: string;
  status: string;
  hostingProvider: string;
  expiryDate: string;
  lastChecked: string;
}

/** `count` plausible domains, ids 1…count, expiring over the coming year from `from`. */
export function standInDomains(count: number, from = new Date()): StandInDomain[] {
  const providers = ['Netlify', 'Vercel', 'Cloudflare Pages', 'Fly.io', 'Render'];
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    domainName: `project-${i + 1}.example.com`,
    status: i % 7 === 6 ? 'expiring' : 'active',
    hostingProvider: providers[i % providers.length]!,
    expiryDate: new Date(from.getTime() + (20 + ((i * 37) % 345)) * 86_400_000).toISOString(),
    lastChecked: from.toISOString(),
  }));
}

export async function startDomainStandIn(options: { apiKey?: string; domains?: StandInDomain[] } = {}) {
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server = createServer((req, res) => {
    stand.requests.push({ method: req.method ?? 'GET', url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const match = /^(.*)\/api\/domains$/.exec(url.pathname);
    if (!match || req.method !== 'GET') return json(res, 404, { error: 'Not found' });
    const base = match[1] || '/';
    const bearer = req.headers.authorization === `Bearer ${stand.apiKey}`;
    const unauthorized = () => json(res, 401, { error: 'Invalid API key' });
    switch (base) {
      case '/':
        return bearer ? json(res, 200, stand.domains) : unauthorized();
      case '/wrapped':
        return bearer
          ? json(res, 200, { [url.searchParams.get('under') ?? 'domains']: stand.domains })
          : unauthorized();
      case '/x-api-key':
        return req.headers['x-api-key'] === stand.apiKey ? json(res, 200, { data: stand.domains }) : unauthorized();
      case '/query':
        return url.searchParams.get('api_key') === stand.apiKey ? json(res, 200, stand.domains) : unauthorized();
      case '/redirect':
        return res.writeHead(302, { location: stand.redirectTo }).end();
      case '/slow':
        return void sleep(stand.slowMs).then(() => (bearer ? json(res, 200, stand.domains) : unauthorized()));
      case '/html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in</title>');
      case '/huge': {
        // Sent chunked, without a length, so the reader finds out only by reading past its limit.
        res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        return res.end(hugeList());
      }
      case '/fail':
        return json(res, 500, { error: 'Internal error' });
      default:
        return json(res, 404, { error: 'Not found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stand: DomainStandIn = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    apiKey: options.apiKey ?? 'stand-in-domain-key-0123456789',
    domains: options.domains ?? standInDomains(3),
    redirectTo: '',
    slowMs: 0,
    requests: [],
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}

let huge: Buffer | undefined;
/** About 6 MB of domains, made once, in one buffer: the machine's load does not decide how fast it goes. */
function hugeList(): Buffer {
  const chunk = `${JSON.stringify({ ...standInDomains(1)[0], note: 'x'.repeat(1000) })},`;
  huge ??= Buffer.from(`[${chunk.repeat(Math.ceil((6 * 1024 * 1024) / chunk.length))}{}]`);
  return huge;
}
