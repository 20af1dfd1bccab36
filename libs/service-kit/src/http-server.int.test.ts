import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serveHttp } from './http-server.ts';

/** A raw connection to `port`, open, and what it has been sent so far. */
async function connection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => received, ended };
}

describe('serveHttp', () => {
  it('closes at once what carries no request, and each other connection as soon as its answer is sent', async () => {
    let answer: (() => void) | undefined;
    let requested!: () => void;
    const arrived = new Promise<void>((resolve) => {
      requested = resolve;
    });
    const http = await serveHttp(
      (req, res) => {
        if (req.url === '/slow') {
          answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
          requested();
        } else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      },
      0,
      '127.0.0.1',
    );
    // A spare that never sends a request, one kept alive after its answer, one with a request in flight.
    const spare = await connection(http.port);
    const idle = await connection(http.port);
    idle.socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => idle.received()).toContain('ok');
    expect(idle.received()).toMatch(/Connection: keep-alive/i);
    const busy = await connection(http.port);
    busy.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await arrived;

    // A deadline far beyond the test's time: closing must not wait for it.
    const closed = http.close(600_000);
    await spare.ended;
    await idle.ended;
    answer!();
    await busy.ended;
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(busy.received()).toMatch(/Connection: close/i);
    expect(busy.received()).toContain('done');
    await closed;
  });
});
