import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  url: string;
  /** Requests sent to each target, in order. */
  readonly counts: number[];
  close(): Promise<void>;
}

/**
 * A load balancer in front of replicas, as a test needs one: each request, whatever connection it came
 * on, goes to the next target in turn, body and headers as they are.
 */
export async function roundRobin(targets: string[]): Promise<RoundRobin> {
  const agent = new Agent({ keepAlive: true });
  const counts = targets.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const index = next++ % targets.length;
    counts[index]! += 1;
    const target = new URL(req.url ?? '/', targets[index]);
    const forwarded = request(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
