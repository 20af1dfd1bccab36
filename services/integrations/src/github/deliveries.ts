import type { DeploymentEnvironment, DeploymentStatus, Shipped } from '@shiplog/schemas';
import { z } from 'zod';
import type { Commit } from '../adapters/github.ts';

/**
 * What a GitHub webhook delivery means to Shiplog, from its event name (`X-GitHub-Event`) and its
 * JSON: pure, so each kind is proven without a server. Anything else (another event, an action that
 * records nothing, a shape GitHub would not send) is `ignored`, with why.
 */
export type DeliveryMeaning =
  | {
      kind: 'release';
      repositoryId: number;
      /** GitHub's id of the release: published twice (unpublished and published again), recorded once. */
      releaseId: number;
      version: string;
      notes: string | null;
      changes: string[];
      url: string;
      at: string;
    }
  | {
      kind: 'deployment';
      repositoryId: number;
      deploymentId: number;
      /** The commit deployed. */
      sha: string;
      environment: DeploymentEnvironment;
      status: DeploymentStatus;
      version: string;
      url: string | null;
      notes: string;
    }
  | { kind: 'push'; repositoryId: number; commit: Commit }
  /**
   * A scheduled workflow's run on the default branch: its start, or its end, as a cron job's ping (a
   * good end is the project's backup; a schedule that stops running is what the expected-backup
   * monitor notices).
   */
  | {
      kind: 'scheduled-run';
      repositoryId: number;
      runId: number;
      workflow: string;
      outcome: 'start' | 'ok' | 'failed';
      /** A failed end's run, alerted as `failed-run` is. */
      failure?: RunFailure;
    }
  /** Any other workflow's run on the default branch that failed (CI on a push): alerted. */
  | ({ kind: 'failed-run'; repositoryId: number; runId: number; workflow: string } & RunFailure)
  | { kind: 'ping'; repositoryId: number | null }
  | { kind: 'ignored'; reason: string };

/** What a failed run's alert says of it: where to read it, on which branch, started by what. */
export interface RunFailure {
  runUrl: string | null;
  branch: string;
  trigger: string;
}

const repository = z.object({ id: z.number().int(), default_branch: z.string().optional() });

const releaseEvent = z.object({
  action: z.string(),
  repository,
  release: z.object({
    id: z.number().int(),
    tag_name: z.string(),
    name: z.string().nullish(),
    body: z.string().nullish(),
    html_url: z.string(),
    published_at: z.string().nullish(),
    draft: z.boolean().optional(),
  }),
});

const deploymentStatusEvent = z.object({
  repository,
  deployment: z.object({
    id: z.number().int(),
    sha: z.string(),
    ref: z.string(),
    environment: z.string(),
    description: z.string().nullish(),
  }),
  deployment_status: z.object({
    state: z.string(),
    environment_url: z.string().nullish(),
    target_url: z.string().nullish(),
    description: z.string().nullish(),
  }),
});

const workflowRunEvent = z.object({
  action: z.string(),
  repository,
  workflow_run: z.object({
    id: z.number().int(),
    name: z.string().nullish(),
    path: z.string().nullish(),
    event: z.string(),
    head_branch: z.string().nullish(),
    conclusion: z.string().nullish(),
    html_url: z.string().nullish(),
  }),
});

/** How a finished run's conclusion ends its ping: cancelled and skipped runs say nothing. */
const runConclusions: Record<string, 'ok' | 'failed'> = {
  success: 'ok',
  failure: 'failed',
  timed_out: 'failed',
  startup_failure: 'failed',
};

const pushEvent = z.object({
  ref: z.string(),
  repository,
  head_commit: z
    .object({
      id: z.string(),
      message: z.string(),
      timestamp: z.string(),
      url: z.string(),
      author: z.object({ name: z.string().optional(), username: z.string().optional() }).optional(),
    })
    .nullable(),
});

/** The most changes a release's notes give (the version call's own limit). */
const MAX_CHANGES = 100;

/** A release's notes' bullet lines ("- Fixed the login", "* Faster") as its changes. */
export function changesOf(notes: string): string[] {
  return notes
    .split(/\r?\n/)
    .map((line) => /^\s*[-*+]\s+(.+)$/.exec(line)?.[1]?.trim())
    .filter((line): line is string => Boolean(line))
    .map((line) => line.slice(0, 500))
    .slice(0, MAX_CHANGES);
}

/** A release's notes but their bullet lines (which are its changes), blank runs closed up; '' for none. */
export function proseOf(notes: string): string {
  return notes
    .split(/\r?\n/)
    .filter((line) => !/^\s*[-*+]\s+/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** GitHub's environment names as Shiplog's three: `production`, `prod-eu` → production, `staging`, `preview` → staging. */
export function environmentOf(name: string): DeploymentEnvironment {
  const lower = name.toLowerCase();
  if (lower.includes('prod') || lower === 'live') return 'production';
  if (lower.includes('stag') || lower.includes('preview') || lower.includes('qa') || lower.includes('test'))
    return 'staging';
  return 'development';
}

const deploymentStates: Record<string, DeploymentStatus> = {
  success: 'success',
  failure: 'failed',
  error: 'failed',
  in_progress: 'started',
  queued: 'started',
  pending: 'started',
};

const iso = (value: string | null | undefined, fallback: string) => {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : fallback;
};

export function meaningOf(event: string, body: unknown, now: Date): DeliveryMeaning {
  const at = now.toISOString();
  switch (event) {
    case 'ping': {
      const parsed = z.object({ repository: repository.optional() }).safeParse(body);
      return { kind: 'ping', repositoryId: parsed.success ? (parsed.data.repository?.id ?? null) : null };
    }
    case 'release': {
      const parsed = releaseEvent.safeParse(body);
      if (!parsed.success) return { kind: 'ignored', reason: 'not a release GitHub would send' };
      const { action, release } = parsed.data;
      // GitHub sends `created`, `published` and `released` for one release: it is recorded when published.
      if (action !== 'published' || release.draft) return { kind: 'ignored', reason: `release ${action}` };
      const text = release.body?.trim() ?? '';
      const notes = proseOf(text);
      return {
        kind: 'release',
        repositoryId: parsed.data.repository.id,
        releaseId: release.id,
        version: release.tag_name.trim().slice(0, 100),
        notes: notes ? notes.slice(0, 2000) : null,
        changes: changesOf(text),
        url: release.html_url,
        at: iso(release.published_at, at),
      };
    }
    case 'deployment_status': {
      const parsed = deploymentStatusEvent.safeParse(body);
      if (!parsed.success) return { kind: 'ignored', reason: 'not a deployment status GitHub would send' };
      const { deployment, deployment_status: status } = parsed.data;
      const mapped = deploymentStates[status.state];
      if (!mapped) return { kind: 'ignored', reason: `deployment ${status.state}` };
      const url = status.environment_url || status.target_url || null;
      const isTag = /^v?\d/.test(deployment.ref);
      return {
        kind: 'deployment',
        repositoryId: parsed.data.repository.id,
        deploymentId: deployment.id,
        sha: deployment.sha,
        environment: environmentOf(deployment.environment),
        status: mapped,
        version: (isTag ? deployment.ref : deployment.sha.slice(0, 7)).slice(0, 100),
        url: url && /^https?:\/\//.test(url) ? url.slice(0, 2000) : null,
        notes: `GitHub deployment to ${deployment.environment} (${deployment.sha.slice(0, 7)})`.slice(0, 2000),
      };
    }
    case 'push': {
      const parsed = pushEvent.safeParse(body);
      if (!parsed.success) return { kind: 'ignored', reason: 'not a push GitHub would send' };
      const { ref, head_commit: head } = parsed.data;
      const branch = ref.replace(/^refs\/heads\//, '');
      if (!head) return { kind: 'ignored', reason: 'a push with no commit' };
      if (branch !== (parsed.data.repository.default_branch ?? 'main'))
        return { kind: 'ignored', reason: `a push to ${branch}, not the default branch` };
      return {
        kind: 'push',
        repositoryId: parsed.data.repository.id,
        commit: {
          sha: head.id,
          message: head.message.slice(0, 1000),
          author: head.author?.username ?? head.author?.name ?? 'unknown',
          url: head.url,
          at: iso(head.timestamp, at),
        },
      };
    }
    case 'workflow_run': {
      const parsed = workflowRunEvent.safeParse(body);
      if (!parsed.success) return { kind: 'ignored', reason: 'not a workflow run GitHub would send' };
      const { action, workflow_run: run, repository: repo } = parsed.data;
      const branch = repo.default_branch ?? 'main';
      if (run.head_branch !== branch) return { kind: 'ignored', reason: 'a workflow run off the default branch' };
      const outcome =
        action === 'in_progress' ? 'start' : action === 'completed' ? runConclusions[run.conclusion ?? ''] : undefined;
      const workflow = (run.path?.split('/').pop() || run.name || 'workflow').slice(0, 200);
      const failure: RunFailure | undefined =
        outcome === 'failed'
          ? {
              runUrl: /^https?:\/\//.test(run.html_url ?? '') ? run.html_url!.slice(0, 2000) : null,
              branch,
              trigger: run.event.slice(0, 100),
            }
          : undefined;
      const ids = { repositoryId: repo.id, runId: run.id, workflow };
      if (run.event !== 'schedule')
        return failure
          ? { kind: 'failed-run', ...ids, ...failure }
          : { kind: 'ignored', reason: `a workflow run on ${run.event} that did not fail` };
      if (!outcome) return { kind: 'ignored', reason: `a scheduled run ${action} ${run.conclusion ?? ''}`.trim() };
      return { kind: 'scheduled-run', ...ids, outcome, ...(failure ? { failure } : {}) };
    }
    default:
      return { kind: 'ignored', reason: `${event} events are not recorded` };
  }
}

/**
 * What a release or deployment shipped, from the commits GitHub's compare lists: each commit's first
 * line, and the pull requests they merged, found as GitHub writes them ("Merge pull request #12 from
 * …" with the title on a later line; a squash's "Title (#12)"), linked on the repository's page.
 */
export function shippedOf(repositoryUrl: string, compareUrl: string | null, commits: readonly Commit[]): Shipped {
  const pullRequests = new Map<number, { number: number; title: string; url: string }>();
  for (const commit of commits) {
    const [first = '', ...rest] = commit.message.split(/\r?\n/);
    const merge = /^Merge pull request #(\d+) from \S+/.exec(first);
    const squash = /^(.*\S)\s+\(#(\d+)\)$/.exec(first);
    const number = Number(merge?.[1] ?? squash?.[2]);
    if (!Number.isInteger(number) || number <= 0 || pullRequests.has(number)) continue;
    const title = merge ? (rest.find((line) => line.trim())?.trim() ?? first) : squash![1]!;
    pullRequests.set(number, { number, title: title.slice(0, 500), url: `${repositoryUrl}/pull/${number}` });
  }
  return {
    compareUrl,
    commits: commits.slice(-250).map((c) => ({
      sha: c.sha,
      message: (c.message.split(/\r?\n/)[0] ?? '').slice(0, 1000),
      author: c.author.slice(0, 100),
      url: c.url,
    })),
    pullRequests: [...pullRequests.values()].slice(0, 100),
  };
}
