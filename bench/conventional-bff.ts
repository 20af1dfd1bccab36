/**
 * The BFF a team would write from the design card's packages instead of Shiplog's gateway: Express,
 * `express-session` with `connect-redis`, and `http-proxy-middleware` in front of the same projects
 * service, with the same session (cookie name, secret, Redis keys: the gateway's sign-in works here)
 * and the same signed internal token the services require. Measured beside the gateway in the same
 * run (bench/projects.ts): what the gateway's lean path buys over the conventional one.
 */
import { randomUUID } from 'node:crypto';
import { CORRELATION_HEADER, INTERNAL_TOKEN_HEADER, TokenSigner } from '@shiplog/service-kit';
import { RedisStore } from 'connect-redis';
import express from 'express';
import session from 'express-session';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { createClient } from 'redis';

const env = process.env;
const redis = createClient({ url: env.REDIS_URL });
await redis.connect();
const signer = new TokenSigner(env.INTERNAL_TOKEN_SECRET!);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(
  session({
    name: 'shiplog.sid',
    store: new RedisStore({ client: redis, prefix: `${env.BUS_NAMESPACE}:sess:` }),
    secret: env.SESSION_SECRET!,
    resave: false,
    saveUninitialized: false,
  }),
);
app.use('/api/projects', (req, res, next) => {
  const user = req.session.user;
  if (!user) {
    res.status(401).json({ message: 'Not authenticated', code: 'UNAUTHORIZED' });
    return;
  }
  req.headers[INTERNAL_TOKEN_HEADER] = signer.token({
    userId: user.id,
    username: user.username,
    isAdmin: user.isAdmin,
  });
  req.headers[CORRELATION_HEADER] = randomUUID();
  next();
});
app.use(createProxyMiddleware({ target: env.PROJECTS_URL, pathFilter: '/api/projects', pathRewrite: { '^/api': '' } }));
const server = app.listen(Number(env.PORT), '127.0.0.1', () => process.stdout.write('conventional bff ready\n'));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => redis.quit().then(() => process.exit(0))));
