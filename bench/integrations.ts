/**
 * Integrations benchmark: one call importing 500 domains from the stand-in domain API, as a
 * user with a large registrar account does. Each domain becomes a project through the projects
 * service's API (the command path, so the timeline records each), then the import is recorded. Timed
 * from the request to the answer, then to the moment the dashboard's reads show every project and
 * timeline row (read-your-writes makes the next read wait for them). Target: the call ≤ 5 s.
 */
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { standInDomains, startDomainStandIn } from '@shiplog/testing/domains';
import { signUp, startBenchApp, stop } from './app.ts';

const DOMAINS = 500;

export async function runIntegrations() {
  const db = await createTestDatabase('bench_integrations');
  const ns = createTestBusNamespace('bench_integrations');
  const api = await startDomainStandIn({ domains: standInDomains(DOMAINS) });
  const port = await freePort();
  const app = await startBenchApp(db.url, ns.namespace, port, { INTEGRATION_ALLOWED_HOSTS: api.host });
  const url = `http://127.0.0.1:${port}`;
  const call = async (cookie: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json', origin: url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    // Read-your-writes positions come back as cookies: the next reads wait for the import.
    const positions = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
    return { body: (await response.json()) as unknown, cookie: [cookie, ...positions].join('; ') };
  };
  try {
    const user = await signUp(url, `importer${Date.now().toString(36)}`);
    const saved = (await call(user.cookie, 'POST', '/api/integrations', {
      siteName: 'Big Registrar',
      baseUrl: api.url,
      apiKey: api.apiKey,
    })) as { body: { id: string } };
    const started = performance.now();
    const imported = await call(user.cookie, 'POST', `/api/integrations/${saved.body.id}/import`, {
      projectIds: api.domains.map((d) => d.id),
    });
    const answeredMs = performance.now() - started;
    const { message } = imported.body as { message: string };
    const projects = (await call(imported.cookie, 'GET', '/api/projects')).body as unknown[];
    const timeline: { eventType: string }[] = [];
    for (let page = 1; ; page++) {
      const rows = (await call(imported.cookie, 'GET', `/api/activities?page=${page}&limit=100`)).body as {
        eventType: string;
      }[];
      timeline.push(...rows);
      if (rows.length < 100) break;
    }
    const visibleMs = performance.now() - started;
    const created = timeline.filter((a) => a.eventType === 'project_created').length;
    if (projects.length !== DOMAINS || created !== DOMAINS) {
      throw new Error(`expected ${DOMAINS} projects and timeline rows, read ${projects.length} and ${created}`);
    }
    return {
      domains: DOMAINS,
      message,
      importSeconds: Math.round(answeredMs) / 1000,
      projectsPerSecond: Math.round(DOMAINS / (answeredMs / 1000)),
      shownOnDashboardSeconds: Math.round(visibleMs) / 1000,
    };
  } finally {
    await stop(app);
    await api.stop();
    await ns.drop();
    await db.drop();
  }
}
