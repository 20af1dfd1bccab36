/**
 * What the monitors benchmarks share: identity, billing, projects and monitors in this process (started
 * as the tests' backend starts them, `startServices` of `@shiplog/system`, each on its own port, over
 * real PostgreSQL and NATS), and accounts with monitors added through the monitors service's API: as
 * many accounts as MAX_MONITORS a piece takes.
 */
import { MAX_MONITORS } from '@shiplog/schemas';
import { signInternalToken } from '@shiplog/service-kit';
import { startServices } from '@shiplog/system';

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export async function startMonitorsStack(name: string, env: Record<string, string>) {
  // Billing too: adding a monitor asks it whether the plan runs monitors.
  const system = await startServices(['identity', 'billing', 'projects', 'monitors'], { name, env });
  const { identity, projects, monitors } = system.running;
  const secret = system.internalTokenSecret;
  const post = (url: string, token: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shiplog-internal-token': token },
      body: JSON.stringify(body),
    });

  /** Accounts holding one monitor of each URL, each `intervalSeconds`; the accounts' internal tokens. */
  async function addMonitors(urls: string[], intervalSeconds: number): Promise<string[]> {
    const anonymous = signInternalToken(secret, { userId: null, username: null, isAdmin: false });
    const run = Date.now().toString(36);
    const accounts = Math.ceil(urls.length / MAX_MONITORS);
    const tokens = await Promise.all(
      Array.from({ length: accounts }, async (_, u) => {
        const registered = await post(`${identity.url}/register`, anonymous, {
          username: `bench${run}u${u}`,
          password: 'bench-password',
        });
        const user = (await registered.json()) as { id: string; username: string };
        const token = signInternalToken(secret, { userId: user.id, username: user.username, isAdmin: false });
        const project = (await (await post(`${projects.url}/projects`, token, { name: `Site ${u}` })).json()) as {
          id: string;
        };
        for (const url of urls.slice(u * MAX_MONITORS, (u + 1) * MAX_MONITORS)) {
          for (;;) {
            const response = await post(`${monitors.url}/projects/${project.id}/monitors`, token, {
              url,
              intervalSeconds,
            });
            if (response.status === 201) break;
            // The monitors service learns of the project from the bus a moment after it is created.
            if (response.status !== 404) throw new Error(`add monitor answered ${response.status}`);
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        return token;
      }),
    );
    const { pool } = monitors.context;
    for (;;) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM monitors.monitor_list');
      if (rows[0]!.n >= urls.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    return tokens;
  }

  return {
    monitors,
    post,
    addMonitors,
    stop: () => system.stop(),
  };
}
