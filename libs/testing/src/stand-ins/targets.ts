import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site a monitor checks, as a user's shipped app would answer: told by the test how to behave.
 *
 * - `up`      200 with `body`
 * - `down`    `status` (503 by default) with a short error page
 * - `hang`    never answers (the check's timeout is the failure)
 * - `slow`    answers 200 after `slowMs`
 *
 * Every request is counted (`hits`), so a test can wait for the next check to arrive.
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
  stop(): Promise<void>;
}

export async function startTargetStandIn(): Promise<TargetStandIn> {
  const hanging = new Set<ServerResponse>();
  const server = createServer((_req, res) => {
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
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const target: TargetStandIn = {
    url: `http://127.0.0.1:${port}/`,
    host: `127.0.0.1:${port}`,
    mode: 'up',
    status: 503,
    body: '<html><body><h1>Weather API</h1><p>All systems normal</p></body></html>',
    slowMs: 2000,
    hits: 0,
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return target;
}
