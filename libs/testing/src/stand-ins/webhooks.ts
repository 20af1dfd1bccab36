import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver took, as it arrived. */
export interface ReceivedHook {
  /** When it arrived (ms since the epoch). */
  receivedAt: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Receivers of outgoing webhooks, as their vendors answer them: Slack's incoming webhooks
 * (`/services/…`, `ok`), Discord's (`/api/webhooks/…`, 204), an ntfy server (JSON published to `/`)
 * and any other path as a builder's own endpoint (200). `failNext` answers that many requests with a
 * 500 first, for retries. `verify` checks a Shiplog signature as a receiver would.
 */
export interface WebhookStandIn {
  url: string;
  /** `host:port`, for MONITOR_ALLOWED_HOSTS. */
  host: string;
  received: ReceivedHook[];
  failNext: number;
  /** Whether `hook` carries a valid `Shiplog-Signature` for `secret`, made within five minutes. */
  verify(hook: ReceivedHook, secret: string): boolean;
  stop(): Promise<void>;
}

export async function startWebhookStandIn(): Promise<WebhookStandIn> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      stand.received.push({
        receivedAt: Date.now(),
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (stand.failNext > 0) {
        stand.failNext -= 1;
        res.writeHead(500, { 'content-type': 'text/plain' }).end('try again');
      } else if (path.startsWith('/services/')) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      else if (path.startsWith('/api/webhooks/')) res.writeHead(204).end();
      else if (path === '/')
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ntfy-1","event":"message"}');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stand: WebhookStandIn = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received: [],
    failNext: 0,
    verify(hook, secret) {
      const header = String(hook.headers['shiplog-signature'] ?? '');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      if (!match) return false;
      if (Math.abs(Date.now() / 1000 - Number(match[1])) > 300) return false;
      const expected = createHmac('sha256', secret).update(`${match[1]}.${hook.body}`).digest();
      return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return stand;
}
