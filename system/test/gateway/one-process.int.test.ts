import { join } from 'node:path';
import { Client } from '@shiplog/system';
import {
  createTestBusNamespace,
  createTestDatabase,
  freePort,
  freeServicePortBase,
  natsUrl,
  redisUrl,
} from '@shiplog/testing';
import { describe, expect, it } from 'vitest';
import { launch } from '../../../scripts/launch.ts';

/**
 * The one-process mode as a container runs it (`node scripts/one-process.ts`, configured by its
 * environment alone): every service and the gateway in one process serve the app, and a SIGTERM
 * stops them all cleanly. The browser tests run the app this way through `npm start`.
 */
describe('the one-process mode', () => {
  it('serves the whole app from one process, and stops it cleanly on SIGTERM', async () => {
    const db = await createTestDatabase('one_process');
    const bus = createTestBusNamespace('one_process');
    const port = await freePort();
    const app = await launch(
      [join(import.meta.dirname, '..', '..', '..', 'scripts', 'one-process.ts')],
      {
        DATABASE_URL: db.url,
        NATS_URL: natsUrl,
        REDIS_URL: redisUrl,
        BUS_NAMESPACE: bus.namespace,
        PORT: String(port),
        SERVICE_PORT_BASE: String(await freeServicePortBase()),
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        RATE_LIMITS: 'off',
      },
      'shiplog: ready',
      90_000,
    );
    try {
      const client = new Client(`http://127.0.0.1:${port}`);
      const registered = await client.post('/api/register', {
        username: `one${Date.now()}`,
        password: 'secret-pass-1',
      });
      expect(registered.status).toBe(201);
      const made = await client.post('/api/projects', { name: 'In one process' });
      expect(made.status).toBe(201);
      // Read through the gateway in the same process, from the projects service's read model.
      expect((await client.get('/api/projects')).body).toMatchObject([{ name: 'In one process' }]);
      // The timeline is another service's projection, fed over the bus.
      expect((await client.get(`/api/projects/${made.body.id}/activities`)).body).toMatchObject([
        { eventType: 'project_created' },
      ]);
      const exited = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)));
      await app.stop();
      expect(await exited).toBe(0);
    } finally {
      await app.stop();
      await bus.drop();
      await db.drop();
    }
  }, 120_000);
});
