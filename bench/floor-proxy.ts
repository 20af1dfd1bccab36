/**
 * The floor for any gateway on this machine: a Node HTTP server that passes `GET /api/projects`
 * to the bare server over a keep-alive undici pool and copies the answer back, with no session, no
 * identity and no routing. Measured in the same run, it shows what one extra Node hop costs by itself.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';

const upstream = new Pool(process.env.UPSTREAM_URL!, { connections: 64, keepAliveTimeout: 30_000 });
const server = createServer((req, res) => {
  upstream
    .stream({ method: 'GET', path: req.url ?? '/' }, ({ statusCode, headers }) => {
      res.statusCode = statusCode;
      res.setHeader('content-type', String(headers['content-type']));
      if (headers['content-length']) res.setHeader('content-length', String(headers['content-length']));
      return res;
    })
    .catch(() => res.destroy());
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('floor proxy ready\n'));
process.on('SIGTERM', () => server.close(() => upstream.close().then(() => process.exit(0))));
