import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerClientError } from './error-body.ts';

export interface HttpServer {
  server: Server;
  /** The port it listens on (the one asked for, or the one given for 0). */
  port: number;
  /**
   * Takes no more connections, answers the requests in flight, and resolves once every connection has
   * ended; what is still open after `deadlineMs` is cut.
   */
  close(deadlineMs?: number): Promise<void>;
}

/**
 * An HTTP server for `listener` on `port` and `host`, once it listens: the gateway's and every
 * service's. A malformed request is answered with the error body; idle keep-alive connections last
 * 65 s, past the usual load balancers' 60.
 *
 * Its close ends every connection as soon as it carries no request. Node's own leaves two kinds open
 * until the deadline: a keep-alive connection after its last answer, and one that never carried a
 * request (a browser's or a client pool's spare, which Node counts busy for its headers timeout).
 * Answers given while closing say `Connection: close`.
 */
export async function serveHttp(listener: RequestListener, port: number, host: string): Promise<HttpServer> {
  const server = createServer(listener);
  /** Each open connection, with how many of its requests are not answered yet. */
  const inFlight = new Map<Socket, number>();
  /** The answers not sent yet. */
  const answering = new Set<ServerResponse>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (req, res) => {
    const { socket } = req;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    if (closing) res.shouldKeepAlive = false;
    answering.add(res);
    res.once('close', () => {
      answering.delete(res);
      // The connection may have ended first (a client gone mid-answer): nothing of it is kept.
      if (!inFlight.has(socket)) return;
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (closing && left === 0) socket.end();
    });
  });
  server.on('clientError', answerClientError);
  server.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close(deadlineMs = 10_000) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, requests] of inFlight) if (requests === 0) socket.destroy();
      for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
      const forced = setTimeout(() => server.closeAllConnections(), deadlineMs);
      return closed.finally(() => clearTimeout(forced));
    },
  };
}
