import { describe, expect, it } from 'vitest';
import { changesOf, environmentOf, meaningOf, shippedOf } from './deliveries.ts';

const now = new Date('2026-11-28T10:00:00.000Z');
const repository = { id: 42, default_branch: 'main', full_name: 'ada/site' };

describe('what a GitHub delivery means', () => {
  it('records a published release with its notes’ bullets as changes, and nothing for its other actions', () => {
    const release = {
      id: 7,
      tag_name: 'v1.4.0',
      name: 'Spring',
      body: 'Highlights\n\n- Faster builds\n* Dark mode\n  + Fixed the login\nThanks!',
      html_url: 'https://github.com/ada/site/releases/tag/v1.4.0',
      published_at: '2026-11-28T09:59:00+01:00',
    };
    expect(meaningOf('release', { action: 'published', repository, release }, now)).toEqual({
      kind: 'release',
      repositoryId: 42,
      releaseId: 7,
      version: 'v1.4.0',
      // Its prose; the bullet lines are its changes.
      notes: 'Highlights\n\nThanks!',
      changes: ['Faster builds', 'Dark mode', 'Fixed the login'],
      url: release.html_url,
      at: '2026-11-28T08:59:00.000Z',
    });
    for (const action of ['created', 'released', 'edited'])
      expect(meaningOf('release', { action, repository, release }, now).kind).toBe('ignored');
    expect(
      meaningOf('release', { action: 'published', repository, release: { ...release, draft: true } }, now).kind,
    ).toBe('ignored');
  });

  it('maps a deployment status to a deployment: environment, outcome, version and address', () => {
    const delivery = (state: string, environment = 'production', ref = 'main') => ({
      repository,
      deployment: { id: 99, sha: 'abcdef1234567890', ref, environment },
      deployment_status: { state, environment_url: 'https://site.example.com', target_url: null },
    });
    expect(meaningOf('deployment_status', delivery('success'), now)).toMatchObject({
      kind: 'deployment',
      deploymentId: 99,
      environment: 'production',
      status: 'success',
      version: 'abcdef1',
      url: 'https://site.example.com',
    });
    expect(meaningOf('deployment_status', delivery('in_progress', 'Preview', 'v2.0.0'), now)).toMatchObject({
      environment: 'staging',
      status: 'started',
      version: 'v2.0.0',
    });
    expect(meaningOf('deployment_status', delivery('failure', 'dev'), now)).toMatchObject({
      environment: 'development',
      status: 'failed',
    });
    expect(meaningOf('deployment_status', delivery('inactive'), now).kind).toBe('ignored');
  });

  it('takes a push to the default branch as its last commit, and ignores other branches and strange shapes', () => {
    const push = (ref: string) => ({
      ref,
      repository,
      head_commit: {
        id: 'f00d',
        message: 'Fix the footer',
        timestamp: '2026-11-28T09:00:00Z',
        url: 'https://github.com/ada/site/commit/f00d',
        author: { name: 'Ada', username: 'ada' },
      },
    });
    expect(meaningOf('push', push('refs/heads/main'), now)).toEqual({
      kind: 'push',
      repositoryId: 42,
      commit: {
        sha: 'f00d',
        message: 'Fix the footer',
        author: 'ada',
        url: 'https://github.com/ada/site/commit/f00d',
        at: '2026-11-28T09:00:00.000Z',
      },
    });
    expect(meaningOf('push', push('refs/heads/feature'), now).kind).toBe('ignored');
    for (const body of [null, 42, [], { ref: 1 }, { repository: { id: 'x' } }])
      for (const event of ['push', 'release', 'deployment_status'])
        expect(meaningOf(event, body, now).kind, `${event} ${JSON.stringify(body)}`).toBe('ignored');
    expect(meaningOf('star', { repository }, now).kind).toBe('ignored');
    expect(meaningOf('ping', { zen: 'Design for failure.', repository }, now)).toEqual({
      kind: 'ping',
      repositoryId: 42,
    });
  });

  it('reads changes and environments as builders write them', () => {
    expect(changesOf('')).toEqual([]);
    expect(changesOf(`${'- x\n'.repeat(150)}`)).toHaveLength(100);
    expect(['production', 'prod-eu', 'live'].map(environmentOf)).toEqual(['production', 'production', 'production']);
    expect(['staging', 'Preview', 'qa'].map(environmentOf)).toEqual(['staging', 'staging', 'staging']);
    expect(environmentOf('local')).toBe('development');
  });

  it('lists what shipped: each commit’s first line, and the pull requests merged or squashed, linked', () => {
    const commit = (sha: string, message: string) => ({
      sha,
      message,
      author: 'ada',
      url: `https://github.com/ada/site/commit/${sha}`,
      at: '2026-11-28T09:00:00.000Z',
    });
    const shipped = shippedOf('https://github.com/ada/site', 'https://github.com/ada/site/compare/a...d', [
      commit('b', 'Fix the footer\n\nIt overlapped.'),
      commit('c', 'Merge pull request #12 from ada/dark-mode\n\nDark mode'),
      commit('d', 'Faster images (#14)'),
      commit('e', 'Faster images again (#14)'),
    ]);
    expect(shipped.compareUrl).toBe('https://github.com/ada/site/compare/a...d');
    expect(shipped.commits.map((c) => c.message)).toEqual([
      'Fix the footer',
      'Merge pull request #12 from ada/dark-mode',
      'Faster images (#14)',
      'Faster images again (#14)',
    ]);
    expect(shipped.pullRequests).toEqual([
      { number: 12, title: 'Dark mode', url: 'https://github.com/ada/site/pull/12' },
      { number: 14, title: 'Faster images', url: 'https://github.com/ada/site/pull/14' },
    ]);
    expect(shippedOf('https://github.com/ada/site', null, []).pullRequests).toEqual([]);
  });

  it('takes a scheduled workflow’s runs on the default branch as its cron ping would: start, ok, failed', () => {
    const run = (action: string, fields: Record<string, unknown> = {}) => ({
      action,
      repository,
      workflow_run: {
        id: 77,
        name: 'Nightly backup',
        path: '.github/workflows/nightly-backup.yml',
        event: 'schedule',
        head_branch: 'main',
        conclusion: null,
        ...fields,
      },
    });
    expect(meaningOf('workflow_run', run('in_progress'), now)).toEqual({
      kind: 'scheduled-run',
      repositoryId: 42,
      runId: 77,
      workflow: 'nightly-backup.yml',
      outcome: 'start',
    });
    expect(meaningOf('workflow_run', run('completed', { conclusion: 'success' }), now)).toMatchObject({
      outcome: 'ok',
    });
    for (const conclusion of ['failure', 'timed_out', 'startup_failure'])
      expect(meaningOf('workflow_run', run('completed', { conclusion }), now)).toMatchObject({
        outcome: 'failed',
        failure: { runUrl: null, branch: 'main', trigger: 'schedule' },
      });
    // Any other workflow's failed run on the default branch (CI on a push) is alerted.
    expect(
      meaningOf(
        'workflow_run',
        run('completed', {
          conclusion: 'failure',
          event: 'push',
          path: '.github/workflows/ci.yml',
          html_url: 'https://github.com/ada/site/actions/runs/77',
        }),
        now,
      ),
    ).toEqual({
      kind: 'failed-run',
      repositoryId: 42,
      runId: 77,
      workflow: 'ci.yml',
      runUrl: 'https://github.com/ada/site/actions/runs/77',
      branch: 'main',
      trigger: 'push',
    });
    for (const ignored of [
      run('completed', { conclusion: 'cancelled' }),
      run('requested'),
      run('completed', { conclusion: 'success', event: 'push' }),
      run('completed', { conclusion: 'success', head_branch: 'feature' }),
      run('completed', { conclusion: 'failure', event: 'push', head_branch: 'feature' }),
    ])
      expect(meaningOf('workflow_run', ignored, now).kind).toBe('ignored');
  });
});
