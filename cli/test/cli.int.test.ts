import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const main = join(import.meta.dirname, '..', 'src', 'shiplog.ts');
let backend: Backend;
let configDir: string;
const ADMIN_PASSWORD = 'admin-secret-1';

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  configDir = await mkdtemp(join(tmpdir(), 'shiplog-cli-'));
});
afterAll(async () => {
  await backend?.stop();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

/** The CLI as a user runs it: its own process, its exit code, what it printed. */
function shiplog(args: string[], options: { env?: Record<string, string>; input?: string } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [main, ...args],
      { env: { PATH: process.env.PATH ?? '', SHIPLOG_CONFIG_DIR: configDir, ...options.env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

async function userWithToken(): Promise<{ client: Client; token: string; tokenId: string }> {
  const { client } = await backend.signUp('cli');
  const created = await client.post('/api/tokens', { name: 'CLI' });
  expect(created.status).toBe(201);
  return { client, token: created.body.token, tokenId: created.body.id };
}

describe('the shiplog CLI', () => {
  it('logs in with a piped token, records a deployment, a backup and a release, and the timeline shows them', async () => {
    const { client, token } = await userWithToken();
    const project = await client.post('/api/projects', { name: 'Weather API' });
    const login = await shiplog(['login', '--server', backend.url], { input: `${token}\n` });
    expect(login.stderr).toMatch(/Paste an API token/);
    expect(login.stdout).toBe(
      `Signed in to ${backend.url} (1 project). Token kept in ${join(configDir, 'credentials.json')}.\n`,
    );
    expect(login.code).toBe(0);
    expect((await stat(join(configDir, 'credentials.json'))).mode & 0o777).toBe(0o600);

    const deploy = await shiplog([
      'deploy',
      '--project',
      'weather api',
      '--version',
      '1.4.0',
      '--env',
      'production',
      '--url',
      'https://weather.example.com',
      '--notes',
      'From CI',
    ]);
    expect(deploy).toMatchObject({ code: 0, stderr: '' });
    expect(deploy.stdout).toBe('Recorded a deployment of Weather API 1.4.0 to production.\n');
    const backup = await shiplog(['backup', '-p', project.body.id, '--location', 's3://backups', '--json']);
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({
      project: { id: project.body.id, name: 'Weather API' },
      type: 'backup',
    });
    const release = await shiplog([
      'release',
      '-p',
      'Weather API',
      '--version',
      '1.5.0',
      '--change',
      'Hourly forecast',
      '--change',
      'Fixes',
    ]);
    expect(release.stdout).toBe('Recorded release 1.5.0 of Weather API (2 changes).\n');

    // Read with the token, as CI would: its reads wait for its own writes (a session's wait for the session's).
    const timeline = await client.get(`/api/projects/${project.body.id}/activities`, {
      authorization: `Bearer ${token}`,
    });
    expect(timeline.body.map((a: { eventType: string }) => a.eventType)).toEqual(
      expect.arrayContaining(['deployment', 'backup_created', 'version_release']),
    );
    const listed = await shiplog(['projects']);
    expect(listed.stdout).toContain('Weather API');
    expect((await shiplog(['logout'])).stdout).toMatch(/^Signed out/);
    expect((await shiplog(['projects'])).code).toBe(3);
  });

  it('says whose the token is, and exports everything once the plan allows it', async () => {
    const { client, token } = await userWithToken();
    const me = (await client.get('/api/user')).body as { id: string; username: string };
    // Made with the token, as a CI job would: the export then waits for it (the token's own writes).
    const made = await fetch(`${backend.url}/api/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Exported' }),
    });
    expect(made.status).toBe(201);
    const env = { SHIPLOG_URL: backend.url, SHIPLOG_TOKEN: token };
    expect(await shiplog(['whoami'], { env })).toMatchObject({ code: 0, stdout: `${me.username} on ${backend.url}\n` });
    expect(JSON.parse((await shiplog(['whoami', '--json'], { env })).stdout)).toMatchObject({
      server: backend.url,
      username: me.username,
    });
    // A trial's export is refused as in Settings; once the plan is paid, the file comes.
    const refused = await shiplog(['export'], { env });
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('subscription') });
    const admin = new Client(backend.url);
    expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    const paid = await admin.request('PUT', `/api/admin/users/${me.id}/subscription`, { subscriptionStatus: 'active' });
    expect(paid.status).toBe(200);
    const output = join(configDir, 'export.json');
    const exported = await shiplog(['export', '--output', output], { env });
    expect(exported).toMatchObject({
      code: 0,
      stderr: `Exported 1 projects, 0 reminders and 1 activities to ${output}.\n`,
    });
    const file = JSON.parse(await readFile(output, 'utf8')) as { username: string; projects: { name: string }[] };
    expect(file).toMatchObject({ username: me.username, projects: [{ name: 'Exported' }] });
    expect((await stat(output)).mode & 0o777).toBe(0o600);
    expect(JSON.parse((await shiplog(['export'], { env })).stdout)).toMatchObject({ projects: [{ name: 'Exported' }] });
  });

  it('takes SHIPLOG_URL, SHIPLOG_TOKEN and SHIPLOG_PROJECT, as a CI job sets them', async () => {
    const { client, token } = await userWithToken();
    await client.post('/api/projects', { name: 'Landing page' });
    const env = { SHIPLOG_URL: backend.url, SHIPLOG_TOKEN: token, SHIPLOG_PROJECT: 'Landing page' };
    // A CI job says when its deployment starts, and how it ended.
    const started = await shiplog(['deploy', '--version', '2.0.0', '--status', 'started'], { env });
    expect(started).toMatchObject({
      code: 0,
      stdout: 'Recorded the start of a deployment of Landing page 2.0.0 to production.\n',
    });
    const deploy = await shiplog(['deploy', '--version', '2.0.0', '--json'], { env });
    expect(deploy.code).toBe(0);
    expect(JSON.parse(deploy.stdout)).toMatchObject({
      type: 'deployment',
      status: 'success',
      project: { name: 'Landing page' },
    });
    const wrong = await shiplog(['deploy', '--status', 'halfway'], { env });
    expect(wrong).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Status must be started, success or failed'),
    });
  });

  it('prints the help of one command, or of all, and where the token is kept', async () => {
    for (const args of [
      ['deploy', '--help'],
      ['help', 'deploy'],
    ]) {
      const help = await shiplog(args);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage:\n {2}shiplog deploy {2}--project NAME\|ID/);
      expect(help.stdout).not.toContain('shiplog backup');
      // The token never on a command line: the help says where it comes from instead.
      expect(help.stdout).not.toContain('--token TOKEN');
      expect(help.stdout).toContain('SHIPLOG_TOKEN');
      expect(help.stdout).toContain('--with-token');
    }
    const typed = await shiplog(['projects', '--token', 'shiplog_x']);
    expect(typed.code).toBe(2);
    expect(typed.stderr).toMatch(/--token would be kept in your shell history and shown by ps: set SHIPLOG_TOKEN/);
    const all = await shiplog(['--help']);
    expect(all.code).toBe(0);
    for (const command of ['login', 'logout', 'projects', 'deploy', 'backup', 'release'])
      expect(all.stdout).toContain(`shiplog ${command}`);
    expect(all.stdout).toContain('SHIPLOG_CONFIG_DIR');
    expect((await shiplog([])).code).toBe(2);
  });

  it('says what went wrong, with an exit code a script can test', async () => {
    const { client, token, tokenId } = await userWithToken();
    await client.post('/api/projects', { name: 'Only one' });
    const env = { SHIPLOG_URL: backend.url, SHIPLOG_TOKEN: token };
    const usage = await shiplog(['deploy', '--project', 'Only one', '--bogus'], { env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^shiplog: Unknown option '--bogus'/);
    expect((await shiplog(['launch'], { env })).code).toBe(2);
    const noProject = await shiplog(['deploy'], { env });
    expect(noProject).toMatchObject({
      code: 2,
      stderr: 'shiplog: which project? Give --project NAME|ID (or set SHIPLOG_PROJECT)\n',
    });
    // A token goes over plain http only to this machine, unless the user says otherwise.
    const plain = await shiplog(['projects'], { env: { ...env, SHIPLOG_URL: 'http://shiplog.example.com' } });
    expect(plain).toMatchObject({
      code: 2,
      stderr:
        'shiplog: refusing to send your token unencrypted to http://shiplog.example.com: use https://, or add --insecure if you must\n',
    });
    const unknown = await shiplog(['deploy', '--project', 'Nope'], { env });
    expect(unknown).toMatchObject({ code: 1, stderr: 'shiplog: no project named "Nope"; yours are "Only one"\n' });
    const badUrl = await shiplog(['deploy', '--project', 'Only one', '--url', 'not a url'], { env });
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toMatch(/^shiplog: .*URL/i);
    expect((await shiplog(['release', '--project', 'Only one', '--version', '1.0.0'], { env })).code).toBe(2);

    expect((await client.request('DELETE', `/api/tokens/${tokenId}`)).status).toBe(204);
    const revoked = await shiplog(['projects'], { env });
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toMatch(/^shiplog: Invalid or revoked API token/);
    const unreachable = await shiplog(['projects'], { env: { ...env, SHIPLOG_URL: 'http://127.0.0.1:9' } });
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(/^shiplog: cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it('sends a record once more after a server error, with the key that makes Shiplog record it once', async () => {
    const { client, token } = await userWithToken();
    const project = await client.post('/api/projects', { name: 'Flaky network' });
    expect(project.status).toBe(201);
    // A proxy in front of Shiplog that loses the first answer after Shiplog has recorded it.
    const keys: string[] = [];
    let dropped = false;
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const key = req.headers['idempotency-key'];
      if (req.method === 'POST' && typeof key === 'string') keys.push(key);
      const answer = await fetch(backend.url + req.url, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
        ) as Record<string, string>,
        body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
      });
      const text = await answer.text();
      if (req.method === 'POST' && !dropped) {
        dropped = true;
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Bad gateway', code: 'UPSTREAM_FAILED' }));
        return;
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const deploy = await shiplog(['deploy', '-p', project.body.id, '--version', '2.0.0'], {
        env: { SHIPLOG_URL: proxyUrl, SHIPLOG_TOKEN: token },
      });
      expect(deploy.code).toBe(0);
      expect(deploy.stderr).toMatch(/Shiplog could not answer: Bad gateway; trying once more/);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toBe(keys[1]);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
    const timeline = await client.get(`/api/projects/${project.body.id}/activities`, {
      authorization: `Bearer ${token}`,
    });
    expect(timeline.body.filter((a: { eventType: string }) => a.eventType === 'deployment')).toHaveLength(1);
  });

  it('takes a piped token with --with-token, tells an old CLI to update, and gives up on a server that does not answer', async () => {
    const { token } = await userWithToken();
    const login = await shiplog(['login', '--server', backend.url, '--with-token'], { input: `${token}\n` });
    expect(login.code).toBe(0);
    expect(login.stderr).toBe('');
    expect(login.stdout).toMatch(/^Signed in to /);

    // A newer server that still serves this CLI's version: it works, with a one-line notice. A server
    // that serves it no more says so, and the CLI says what to do.
    let serves = true;
    const newer = createServer((_req, res) => {
      if (serves) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-shiplog-api-version': '3' });
        res.end('[]');
      } else {
        res.writeHead(400, { 'content-type': 'application/json', 'x-shiplog-api-version': '3' });
        res.end(
          JSON.stringify({
            message: 'This Shiplog no longer serves version 1 of its API.',
            code: 'API_VERSION_UNSUPPORTED',
          }),
        );
      }
    });
    await new Promise<void>((resolve) => newer.listen(0, '127.0.0.1', resolve));
    const newerUrl = `http://127.0.0.1:${(newer.address() as AddressInfo).port}`;
    try {
      const env = { SHIPLOG_URL: newerUrl, SHIPLOG_TOKEN: token };
      const old = await shiplog(['projects', '--json'], { env });
      expect(old).toMatchObject({ code: 0, stdout: '[]\n' });
      expect(old.stderr).toMatch(
        new RegExp(`^shiplog: note: ${newerUrl} speaks version 3 of the Shiplog API .* still works`),
      );
      expect(old.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      serves = false;
      const retired = await shiplog(['projects'], { env });
      expect(retired.code).toBe(1);
      expect(retired.stderr).toMatch(/no longer serves version 1 .* update it \(npm install -g shiplog@latest\)/);
    } finally {
      await new Promise((resolve) => newer.close(resolve));
    }
    // Shiplog itself announces its version, and refuses a version it no longer serves.
    const announced = await fetch(`${backend.url}/api/projects`, {
      headers: { authorization: `Bearer ${token}`, 'x-shiplog-api-version': '1' },
    });
    expect(announced.status).toBe(200);
    expect(announced.headers.get('x-shiplog-api-version')).toBe('1');
    const ancient = await fetch(`${backend.url}/api/projects`, {
      headers: { authorization: `Bearer ${token}`, 'x-shiplog-api-version': '0' },
    });
    expect(ancient.status).toBe(400);
    expect(((await ancient.json()) as { code: string }).code).toBe('API_VERSION_UNSUPPORTED');

    // Accepts the connection, never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const stuck = await shiplog(['projects'], {
        env: { SHIPLOG_URL: `http://127.0.0.1:${port}`, SHIPLOG_TOKEN: token, SHIPLOG_TIMEOUT: '0.3' },
      });
      expect(stuck).toMatchObject({
        code: 4,
        stderr: `shiplog: http://127.0.0.1:${port} did not answer within 0.3 s\n`,
      });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
