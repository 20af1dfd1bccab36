import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Backend, Client, startBackend } from '@shiplog/system';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A public project's changelog: its releases at `/u/{username}/{projectId}/changelog` and as an Atom
 * feed, signed out, read by a real feed parser; nothing of a private project or profile, and nothing
 * of what a release shipped (a private repository's commits).
 */
let backend: Backend;
const dist = mkdtempSync(join(tmpdir(), 'shiplog-web-'));
writeFileSync(
  join(dist, 'index.html'),
  '<!doctype html><html><head><title>Shiplog</title></head><body><div id="root"></div></body></html>',
);

beforeAll(async () => {
  backend = await startBackend({ env: { APP_URL: 'https://shiplog.test', WEB_DIST: dist } });
});
afterAll(async () => {
  await backend?.stop();
});

async function builder(visibility: 'public' | 'private' = 'public') {
  const user = await backend.signUp('changelog');
  expect(
    (await user.client.post('/api/profile', { displayName: 'Ada & Co', projectVisibility: visibility })).status,
  ).toBe(200);
  return user;
}

const changelogPath = (username: string, projectId: string) =>
  `/api/public/users/${username}/projects/${projectId}/changelog`;

describe('a public changelog', () => {
  it('lists a public project’s releases newest first, as JSON and as an Atom feed a feed reader reads', async () => {
    const { client, username } = await builder();
    const project = (await client.post('/api/projects', { name: 'Weather <API>', description: 'Forecasts' })).body
      .id as string;
    await client.post(`/api/projects/${project}/version`, {
      version: '1.0.0',
      notes: 'First & best',
      changes: ['Launch'],
    });
    await client.post(`/api/projects/${project}/version`, {
      version: 'v1.1.0',
      changes: ['Hourly <forecast>', 'Dark mode'],
      shipped: {
        compareUrl: null,
        commits: [{ sha: 'abc', message: 'private-commit-message', author: 'ada', url: 'https://github.com/x' }],
        pullRequests: [],
      },
    });
    await client.post(`/api/projects/${project}/deployment`, { version: '1.1.0', notes: 'private-deploy-note' });

    const anyone = new Client(backend.url);
    const json = await anyone.get(changelogPath(username, project));
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({
      username,
      displayName: 'Ada & Co',
      project: { id: project, name: 'Weather <API>', description: 'Forecasts' },
    });
    expect(json.body.releases.map((r: { version: string }) => r.version)).toEqual(['v1.1.0', '1.0.0']);
    expect(json.body.releases[1]).toMatchObject({ notes: 'First & best', changes: ['Launch'] });
    expect(json.text).not.toContain('private-');

    const atom = await fetch(`${backend.url}${changelogPath(username, project)}.atom`);
    expect(atom.status).toBe(200);
    expect(atom.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    const xml = await atom.text();
    expect(xml).not.toContain('private-');
    const feed = await new Parser().parseString(xml);
    expect(feed.title).toBe('Weather <API> changelog');
    expect(feed.link).toBe(`https://shiplog.test/u/${username}/${project}/changelog`);
    expect(feed.items.map((item) => item.title)).toEqual(['v1.1.0', '1.0.0']);
    expect(feed.items[0]!.content).toContain('<li>Hourly &lt;forecast&gt;</li>');
    expect(feed.items[1]!.content).toContain('<p>First &amp; best</p>');
    expect(feed.items[0]!.link).toBe(`https://shiplog.test/u/${username}/${project}/changelog#v1.1.0`);

    // The page's head names the feed for feed readers.
    const page = await (await fetch(`${backend.url}/u/${username}/${project}/changelog`)).text();
    expect(page).toContain('<title>Weather &lt;API&gt; changelog · Shiplog</title>');
    expect(page).toContain(`type="application/atom+xml"`);
    expect(page).toContain(`href="https://shiplog.test${changelogPath(username, project)}.atom"`);
  });

  it('is not found for a private project, a private profile, or another user’s project', async () => {
    const { client, username } = await builder();
    const hidden = (await client.post('/api/projects', { name: 'Stealth', isPublic: false })).body.id as string;
    await client.post(`/api/projects/${hidden}/version`, { version: '0.1.0' });
    const anyone = new Client(backend.url);
    expect((await anyone.get(changelogPath(username, hidden))).status).toBe(404);
    expect((await fetch(`${backend.url}${changelogPath(username, hidden)}.atom`)).status).toBe(404);

    const other = await builder();
    const theirs = (await other.client.post('/api/projects', { name: 'Theirs' })).body.id as string;
    expect((await anyone.get(changelogPath(username, theirs))).status).toBe(404);

    const closed = await builder('private');
    const shut = (await closed.client.post('/api/projects', { name: 'Shut' })).body.id as string;
    expect((await anyone.get(changelogPath(closed.username, shut))).status).toBe(404);
    const head = await fetch(`${backend.url}/u/${closed.username}/${shut}/changelog`);
    expect(head.status).toBe(404);
    expect(await head.text()).toContain('noindex');
  });
});
