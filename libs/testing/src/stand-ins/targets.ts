import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/**
 * A site a monitor checks, as a user's shipped app would answer: told by the test how to behave.
 *
 * - `up`      200 with `body`
 * - `down`    `status` (503 by default) with a short error page
 * - `hang`    never answers (the check's timeout is the failure)
 * - `slow`    answers 200 after `slowMs`
 *
 * Every request is counted (`hits`), so a test can wait for the next check to arrive. With `tls`, it
 * answers https with a certificate of its own (`ca`, for the checker to trust) that ends in the days
 * given; `renew` replaces it, as a renewal on the server would.
 */
export type TargetMode = 'up' | 'down' | 'hang' | 'slow';

export interface TargetStandIn {
  url: string;
  /** `host:port`, for MONITOR_ALLOWED_HOSTS. */
  host: string;
  mode: TargetMode;
  status: number;
  body: string;
  slowMs: number;
  hits: number;
  /** The root its https certificates are signed by, or null over http. */
  ca: string | null;
  /** A new certificate, ending `expiresInDays` from now, for the connections made after it. */
  renew(expiresInDays: number): Promise<void>;
  stop(): Promise<void>;
}

/** The stand-ins' own root, made once a process: the checker trusts it (`ca`), as it would a public one. */
let root: Promise<{ private: string; cert: string }> | undefined;
const rootCa = () => {
  root ??= generate([{ name: 'commonName', value: 'Shiplog test root' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return root;
};

/** A certificate for 127.0.0.1, signed by the root, ending `expiresInDays` from now. */
async function certificate(expiresInDays: number) {
  const ca = await rootCa();
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + expiresInDays * 86_400_000),
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  return { key: pems.private, cert: pems.cert };
}

export async function startTargetStandIn(options: { tls?: { expiresInDays: number } } = {}): Promise<TargetStandIn> {
  const hanging = new Set<ServerResponse>();
  const pair = options.tls ? await certificate(options.tls.expiresInDays) : null;
  const handle = (_req: IncomingMessage, res: ServerResponse) => {
    target.hits += 1;
    switch (target.mode) {
      case 'up':
        res.writeHead(200, { 'content-type': 'text/html' }).end(target.body);
        return;
      case 'down':
        res.writeHead(target.status, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
        return;
      case 'hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      case 'slow':
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(target.body), target.slowMs);
        return;
    }
  };
  const server = pair ? createHttpsServer(pair, handle) : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const target: TargetStandIn = {
    url: `${pair ? 'https' : 'http'}://127.0.0.1:${port}/`,
    host: `127.0.0.1:${port}`,
    mode: 'up',
    status: 503,
    body: '<html><body><h1>Weather API</h1><p>All systems normal</p></body></html>',
    slowMs: 2000,
    hits: 0,
    ca: pair ? (await rootCa()).cert : null,
    async renew(expiresInDays) {
      if (!('setSecureContext' in server)) throw new Error('renew: this target answers http');
      const next = await certificate(expiresInDays);
      server.setSecureContext(next);
    },
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return target;
}
