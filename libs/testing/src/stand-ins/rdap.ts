import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An RDAP server (RFC 9082/9083) for the domains a test names: `GET /domain/{name}` answers the
 * domain object with its registration and expiration events, as registries' servers do, and 404
 * (an RDAP error object) for a name it does not hold. `expirations` is the test's to change.
 */
export interface RdapStandIn {
  url: string;
  /** `host:port`, for MONITOR_ALLOWED_HOSTS. */
  host: string;
  expirations: Map<string, Date>;
  lookups: number;
  stop(): Promise<void>;
}

export async function startRdapStandIn(): Promise<RdapStandIn> {
  const server = createServer((req, res) => {
    stand.lookups += 1;
    const name = decodeURIComponent(/^\/domain\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '').toLowerCase();
    const expiration = stand.expirations.get(name);
    const json = { 'content-type': 'application/rdap+json' };
    if (!expiration) {
      res
        .writeHead(404, json)
        .end(JSON.stringify({ errorCode: 404, title: 'Not Found', rdapConformance: ['rdap_level_0'] }));
      return;
    }
    res.writeHead(200, json).end(
      JSON.stringify({
        rdapConformance: ['rdap_level_0'],
        objectClassName: 'domain',
        ldhName: name.toUpperCase(),
        status: ['client transfer prohibited'],
        events: [
          { eventAction: 'registration', eventDate: '2019-03-01T12:00:00Z' },
          { eventAction: 'expiration', eventDate: expiration.toISOString() },
          { eventAction: 'last update of RDAP database', eventDate: new Date().toISOString() },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stand: RdapStandIn = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    expirations: new Map(),
    lookups: 0,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return stand;
}
