import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceUnavailableError } from '@shiplog/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServiceName, serviceNames } from './config.ts';
import { ServiceClients } from './service-clients.ts';

/**
 * A service that stops answering (its process hung, its database locked): calls to it give up after
 * their timeout, and once several in a row have, its breaker fails the next ones at once, until one
 * let through finds it answering again. A real HTTP server plays the service.
 */
let server: Server;
let answering = false;
let requests = 0;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests += 1;
    // Hung: the connection is accepted, the answer never comes.
    if (!answering) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const caller = { userId: null, username: null, isAdmin: false, correlationId: 'breaker-test' };

describe('calls to a service that stops answering', () => {
  it('give up after their timeout, then fail at once while the breaker is open, and flow again once it answers', async () => {
    const urls = Object.fromEntries(serviceNames.map((name) => [name, url])) as Record<ServiceName, string>;
    const clients = new ServiceClients(urls, 'x'.repeat(32), { breaker: { failures: 3, halfOpenAfterMs: 400 } });
    const call = () => clients.call('billing', { method: 'GET', path: '/thing', caller, timeoutMs: 150 });

    // Three calls wait their 150 ms each, then fail as the service's usual 503.
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await expect(call()).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    }
    expect(requests).toBe(3);

    // Open: the next fails at once, without reaching the service.
    const started = performance.now();
    await expect(call()).rejects.toThrow('The billing service is not available right now. Please try again.');
    expect(performance.now() - started).toBeLessThan(50);
    expect(requests).toBe(3);
    // Each service has its own breaker.
    await expect(
      clients.call('projects', { method: 'GET', path: '/thing', caller, timeoutMs: 150 }),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(requests).toBe(4);

    // The service answers again; after the open time, one call is let through, and the breaker closes.
    answering = true;
    await expect
      .poll(async () => (await call().catch(() => null))?.body, { interval: 50, timeout: 5_000 })
      .toEqual({ ok: true });
    expect((await call()).body).toEqual({ ok: true });
    expect(requests).toBe(6);
    await clients.close();
  });
});
