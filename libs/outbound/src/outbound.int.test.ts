import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { startTargetStandIn } from '@shiplog/testing/targets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, Outbound, RefusedAddressError, ResponseTooLargeError } from './index.ts';

/** A port on 127.0.0.1 that must never be reached: it counts every connection made to it. */
let trap: TcpServer;
let trapPort: number;
let connections = 0;
/** An allowed host (as INTEGRATION_ALLOWED_HOSTS would list it) that redirects, or answers. */
let api: Server;
let apiPort: number;

const listen = (server: Server | TcpServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );

beforeAll(async () => {
  trap = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  trapPort = await listen(trap);
  api = createHttpServer((req, res) => {
    if (req.url === '/to-loopback') {
      res.writeHead(302, { location: `http://127.0.0.1:${trapPort}/api/domains` }).end();
    } else if (req.url === '/to-self') {
      res.writeHead(301, { location: '/api/domains' }).end();
    } else if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(2048, 'x'));
    } else if (req.url === '/huge-declared') {
      // Its length said first, then the bytes only after a while: the reader refuses it on the headers.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2048 });
      res.write(Buffer.alloc(16, 'x'));
      setTimeout(() => res.end(Buffer.alloc(2032, 'x')), 60_000).unref();
    } else {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ auth: req.headers.authorization }));
    }
  });
  apiPort = await listen(api);
});
afterAll(async () => {
  await new Promise((resolve) => trap.close(resolve));
  await new Promise((resolve) => api.close(resolve));
});

describe('outbound requests to addresses users type in', () => {
  it('knows public unicast addresses from every private, local and reserved kind', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(isPublicAddress(address)).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      // IPv6 outside global unicast (2000::/3), which the libraries call unicast.
      '::2',
      '1::1',
      '4000::1',
      'e000::1',
      // Azure's host-local service (DNS, DHCP, the VM agent) on a public address.
      '168.63.129.16',
      '::ffff:168.63.129.16',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses every private address however it is written, before any packet leaves for it', async () => {
    const outbound = new Outbound({
      allowedHosts: [`127.0.0.1:${apiPort}`],
      // A name the test's own resolver sends to loopback, as a hostile DNS server would.
      lookup: (hostname, _options, callback) =>
        hostname === 'rebound.example'
          ? callback(null, [{ address: '127.0.0.1', family: 4 }])
          : callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []),
    });
    const targets = [
      `http://127.0.0.1:${trapPort}/`,
      `http://localhost:${trapPort}/`,
      `http://127.1:${trapPort}/`,
      `http://2130706433:${trapPort}/`,
      `http://0x7f000001:${trapPort}/`,
      `http://0.0.0.0:${trapPort}/`,
      `http://[::1]:${trapPort}/`,
      `http://[::ffff:127.0.0.1]:${trapPort}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      `http://rebound.example:${trapPort}/`,
      // An allowed host that redirects to a loopback port: the hop is checked like the first.
      `http://127.0.0.1:${apiPort}/to-loopback`,
    ];
    for (const target of targets) {
      const refused = await outbound.get(new URL(target), {}).catch((error: unknown) => error);
      expect(refused, target).toBeInstanceOf(RefusedAddressError);
      expect((refused as Error).message, target).toMatch(/^Refused: .* is a private, loopback or reserved address/);
    }
    expect(outbound.refusalOf(new URL('ftp://example.com/'))).toBe('Only http:// and https:// addresses can be used');
    expect(outbound.refusalOf(new URL('https://api.example.com/'))).toBeNull();
    // An allowed host is exempt only when typed: reached by a redirect from a public address, it is
    // checked like any other (get() passes exempt only along a chain that started at one).
    expect(outbound.refusalOf(new URL(`http://127.0.0.1:${apiPort}/`))).toBeNull();
    expect(outbound.refusalOf(new URL(`http://127.0.0.1:${apiPort}/`), false)).toMatch(/^Refused: 127\.0\.0\.1/);
    expect(connections).toBe(0);
    await outbound.close();
  });

  it('gives an SDK a fetch that refuses the same addresses, follows no redirect from an allowed host, and calls it', async () => {
    const outbound = new Outbound({
      allowedHosts: [`127.0.0.1:${apiPort}`],
      lookup: (hostname, _options, callback) =>
        hostname === 'rebound.example'
          ? callback(null, [{ address: '127.0.0.1', family: 4 }])
          : callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []),
    });
    for (const target of [
      `http://127.0.0.1:${trapPort}/`,
      `http://localhost:${trapPort}/`,
      `http://[::ffff:127.0.0.1]:${trapPort}/`,
      'http://169.254.169.254/latest/meta-data/',
      `http://rebound.example:${trapPort}/`,
    ]) {
      const refused = await outbound.fetch(target, { headers: { authorization: 'token t' } }).catch((e: unknown) => e);
      expect(refused, target).toBeInstanceOf(RefusedAddressError);
    }
    // The allowed host's redirect to a loopback port is answered, not followed.
    const redirect = await outbound.fetch(`http://127.0.0.1:${apiPort}/to-loopback`);
    expect(redirect.status).toBe(302);
    const answer = await outbound.fetch(`http://127.0.0.1:${apiPort}/api`, { headers: { authorization: 'token t' } });
    expect(await answer.json()).toEqual({ auth: 'token t' });
    expect(connections).toBe(0);
    await outbound.close();
  });

  it('screens a typed address before it is saved, resolving its name as a connection would', async () => {
    const outbound = new Outbound({
      allowedHosts: [`127.0.0.1:${apiPort}`],
      lookup: (hostname, _options, callback) =>
        hostname === 'rebound.example'
          ? callback(null, [{ address: '10.0.0.7', family: 4 }])
          : hostname === 'mixed.example'
            ? callback(null, [
                { address: '93.184.216.34', family: 4 },
                { address: '::1', family: 6 },
              ])
            : hostname === 'public.example'
              ? callback(null, [{ address: '93.184.216.34', family: 4 }])
              : callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []),
    });
    expect(await outbound.screen(new URL('https://rebound.example/health'))).toBe(
      'Refused: rebound.example resolves to 10.0.0.7 is a private, loopback or reserved address. Shiplog only connects to public addresses.',
    );
    expect(await outbound.screen(new URL('https://mixed.example/'))).toMatch(
      /^Refused: mixed\.example resolves to ::1/,
    );
    expect(await outbound.screen(new URL('http://[::1]:8080/'))).toMatch(/^Refused: ::1/);
    expect(await outbound.screen(new URL('http://localhost/'))).toMatch(/^Refused: localhost/);
    expect(await outbound.screen(new URL('https://public.example/'))).toBeNull();
    // Not resolvable yet: not refused here; its checks say so.
    expect(await outbound.screen(new URL('https://unknown.example/'))).toBeNull();
    // An allowed host is exempt, as when it is called.
    expect(await outbound.screen(new URL(`http://127.0.0.1:${apiPort}/`))).toBeNull();
    await outbound.close();
  });

  it('calls an allowed host, follows its redirects on the same origin with the credential, and caps the body', async () => {
    const outbound = new Outbound({ allowedHosts: [`127.0.0.1:${apiPort}`], maxBytes: 1024 });
    const answered = await outbound.get(new URL(`http://127.0.0.1:${apiPort}/to-self`), { authorization: 'Bearer k' });
    expect(answered).toMatchObject({ status: 200, statusText: 'OK', contentType: 'application/json' });
    expect(JSON.parse(answered.body)).toEqual({ auth: 'Bearer k' });
    await expect(outbound.get(new URL(`http://127.0.0.1:${apiPort}/huge`), {})).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    await expect(outbound.get(new URL(`http://127.0.0.1:${apiPort}/huge-declared`), {})).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    await outbound.close();
  });

  it('reads when an https server’s certificate ends, on each new connection, and refuses one no trusted root signed', async () => {
    const site = await startTargetStandIn({ tls: { expiresInDays: 10 } });
    const fresh = new Outbound({ allowedHosts: [site.host, `127.0.0.1:${apiPort}`], ca: [site.ca!], keepAlive: false });
    const untrusting = new Outbound({ allowedHosts: [site.host] });
    try {
      const first = await fresh.get(new URL(site.url), {});
      expect(first.status).toBe(200);
      const day = 86_400_000;
      expect(Math.abs(first.certificateExpiresAt!.getTime() - (Date.now() + 10 * day))).toBeLessThan(60_000);
      await site.renew(40);
      const renewed = await fresh.get(new URL(site.url), {});
      expect(Math.abs(renewed.certificateExpiresAt!.getTime() - (Date.now() + 40 * day))).toBeLessThan(60_000);
      await expect(untrusting.get(new URL(site.url), {})).rejects.toMatchObject({
        code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      });
      // Over http there is no certificate.
      expect((await fresh.get(new URL(`http://127.0.0.1:${apiPort}/`), {})).certificateExpiresAt).toBeNull();
    } finally {
      await Promise.all([fresh.close(), untrusting.close(), site.stop()]);
    }
  });
  it('keeps the certificates of a bounded number of hosts, dropping the least recently used', async () => {
    const sites = await Promise.all([1, 2, 3].map((days) => startTargetStandIn({ tls: { expiresInDays: days * 10 } })));
    const outbound = new Outbound({
      allowedHosts: sites.map((s) => s.host),
      ca: [sites[0]!.ca!],
      keepAlive: false,
      maxCertificates: 2,
    });
    try {
      for (const site of sites) expect((await outbound.get(new URL(site.url), {})).certificateExpiresAt).not.toBeNull();
      // Host after host, however many a process meets: two kept, the latest one read as ever.
      expect(outbound.certificatesKept).toBe(2);
      const last = await outbound.get(new URL(sites[2]!.url), {});
      expect(Math.abs(last.certificateExpiresAt!.getTime() - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    } finally {
      await Promise.all([outbound.close(), ...sites.map((s) => s.stop())]);
    }
  });
});
