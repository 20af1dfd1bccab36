import { connect } from 'node:net';
import { type Backend, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * A write whose connection is closed before the gateway reads the end of it. Here the client sends a
 * DELETE followed by bytes that are no request: the gateway answers those 400 and closes, and Node
 * destroys the DELETE without ever ending it (the fuzzer met this with a body sent without a length).
 * Forwarded anyway, its body never ended: the service waited for the rest, the call stayed open, and
 * the gateway's stop waited for it until ServiceClients.close cut it after 5 s. Now it is not forwarded
 * (nobody is left to answer). A new API token makes the gateway ask identity whose it is first, so the
 * connection is gone by then; were it not, the write would go through whole, and the stop still wait
 * on nothing.
 */
let backend: Backend | undefined;
beforeAll(async () => {
  backend = await startBackend();
}, 60_000);
afterAll(async () => {
  await backend?.stop();
});

it('leaves no call open for a write whose connection closed before its end was read: a stop waits on none', async () => {
  const { client } = await backend!.signUp('gone');
  const project = (await client.post('/api/projects', { name: 'Deleted by a client that went away' })).body.id;
  const { token } = (await client.post('/api/tokens', { name: 'went away' })).body;
  const { port } = new URL(backend!.url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `DELETE /api/projects/${project} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
          `\r\n${'x'.repeat(2000)}`,
      );
    });
    socket.on('data', () => undefined);
    socket.on('end', () => socket.end());
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  // A read with the same token takes the write's path behind it (identity's check, Redis, the
  // forward): once it is answered, the write has been forwarded or dropped.
  const read = await fetch(`${backend!.url}/api/projects/${project}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect([200, 404]).toContain(read.status);
  const { logged } = backend!;
  await backend!.stop();
  backend = undefined;
  // A stop that waited on an open call ran out its grace and cut it, which the gateway logs.
  expect(logged()).not.toContain('still open at the stop were cut');
});
