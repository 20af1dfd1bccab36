import { describe, expect, it } from 'vitest';
import { decideGitHub, type GitHubCommand } from './decide.ts';
import { evolveGitHubAccount, type GitHubAccount, initialGitHubAccount } from './github.ts';

const now = new Date('2026-11-28T10:00:00.000Z');
const userId = '0193a1b2-0000-7000-8000-00000000000a';
const project = '0193a1b2-0000-7000-8000-00000000000c';
const other = '0193a1b2-0000-7000-8000-00000000000d';

const apply = (state: GitHubAccount, command: GitHubCommand) =>
  decideGitHub(command, state, now).reduce(evolveGitHubAccount, state);
const connect = (state: GitHubAccount, hookKey: string, sealedSecret: string) =>
  apply(state, {
    type: 'Connect',
    userId,
    apiUrl: 'https://api.github.com',
    login: 'ada',
    hookKey,
    credential: { sealedToken: 'sealed-token' },
    sealedSecret,
  });
const link = (projectId: string, repositoryId: number) => ({
  projectId,
  repositoryId,
  fullName: `ada/repo-${repositoryId}`,
  htmlUrl: `https://github.com/ada/repo-${repositoryId}`,
  defaultBranch: 'main',
  hook: 'created' as const,
});

describe('a GitHub connection', () => {
  it('is made with a token, or through the GitHub App’s installation with no token kept, and the one replaces the other', () => {
    const token = connect(initialGitHubAccount(), 'key-1', 'secret-1');
    expect(token.connection).toMatchObject({ sealedToken: 'sealed-token', installationId: null });
    const app = apply(token, {
      type: 'Connect',
      userId,
      apiUrl: 'https://api.github.com',
      login: 'ada',
      hookKey: 'key-2',
      credential: { installationId: 77 },
      sealedSecret: 'secret-2',
    });
    expect(app).toMatchObject({ hookKey: 'key-1', connection: { sealedToken: null, installationId: 77 } });
    expect(connect(app, 'key-3', 'secret-3').connection).toMatchObject({
      sealedToken: 'sealed-token',
      installationId: null,
    });
  });

  it('keeps its webhook address and secret across a disconnection, so the repositories’ webhooks work again', () => {
    const first = connect(initialGitHubAccount(), 'key-1', 'secret-1');
    expect(first).toMatchObject({ hookKey: 'key-1', sealedSecret: 'secret-1', connection: { login: 'ada' } });
    const off = apply(first, { type: 'Disconnect', userId });
    expect(off.connection).toBeNull();
    expect(decideGitHub({ type: 'Disconnect', userId }, off, now)).toEqual([]);
    const again = connect(off, 'key-2', 'secret-2');
    expect(again).toMatchObject({ hookKey: 'key-1', sealedSecret: 'secret-1', connection: { broken: false } });
  });

  it('is marked for reconnection once when GitHub refuses its token, and a new token mends it', () => {
    const broken = apply(connect(initialGitHubAccount(), 'k', 's'), { type: 'MarkBroken', userId, status: 401 });
    expect(broken.connection?.broken).toBe(true);
    expect(decideGitHub({ type: 'MarkBroken', userId, status: 401 }, broken, now)).toEqual([]);
    expect(connect(broken, 'k', 's').connection?.broken).toBe(false);
  });

  it('works again through the app once GitHub says its suspension ended; a refused token of the user’s stays refused', () => {
    const app = apply(initialGitHubAccount(), {
      type: 'Connect',
      userId,
      apiUrl: 'https://api.github.com',
      login: 'ada',
      hookKey: 'k',
      credential: { installationId: 77 },
      sealedSecret: 's',
    });
    expect(decideGitHub({ type: 'Restore', userId }, app, now)).toEqual([]);
    const suspended = apply(app, { type: 'MarkBroken', userId, status: 403 });
    expect(suspended.connection?.broken).toBe(true);
    const restored = apply(suspended, { type: 'Restore', userId });
    expect(restored.connection).toMatchObject({ broken: false, installationId: 77 });
    const refused = apply(connect(initialGitHubAccount(), 'k', 's'), { type: 'MarkBroken', userId, status: 401 });
    expect(decideGitHub({ type: 'Restore', userId }, refused, now)).toEqual([]);
    expect(decideGitHub({ type: 'Restore', userId }, initialGitHubAccount(), now)).toEqual([]);
  });

  it('joins a project to one repository and a repository to one project; the same again is nothing', () => {
    expect(() =>
      decideGitHub({ type: 'Link', userId, links: [link(project, 1)] }, initialGitHubAccount(), now),
    ).toThrow('Connect GitHub first');
    const linked = apply(connect(initialGitHubAccount(), 'k', 's'), {
      type: 'Link',
      userId,
      links: [link(project, 1)],
    });
    expect(linked.links.get(project)).toMatchObject({ repositoryId: 1, linkedAt: now.toISOString() });
    expect(decideGitHub({ type: 'Link', userId, links: [link(project, 1)] }, linked, now)).toEqual([]);
    expect(() => decideGitHub({ type: 'Link', userId, links: [link(project, 2)] }, linked, now)).toThrow(
      'joined to ada/repo-1 already',
    );
    expect(() => decideGitHub({ type: 'Link', userId, links: [link(other, 1)] }, linked, now)).toThrow(
      'joined to another of your projects',
    );
    const unlinked = apply(linked, { type: 'Unlink', userId, projectId: project });
    expect(unlinked.links.size).toBe(0);
    expect(decideGitHub({ type: 'Unlink', userId, projectId: project }, unlinked, now)).toEqual([]);
  });
});
