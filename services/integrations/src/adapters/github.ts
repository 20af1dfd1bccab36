import { createAppAuth } from '@octokit/auth-app';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { AppError } from '@shiplog/errors';
import { type Outbound, RefusedAddressError } from '@shiplog/outbound';

/**
 * GitHub's REST API as Shiplog calls it, with the user's token, through `@octokit/rest` over Outbound
 * (an Enterprise Server address is one a user typed: never a private one, unless allowed for local
 * development). GitHub's rate limits are honoured as its headers say (`@octokit/plugin-throttling`):
 * a request that meets one waits its reset once when that is within a minute, else fails with 503
 * `GITHUB_RATE_LIMITED`; a token GitHub refuses is `GitHubRefusedError` (the connection is broken).
 */
const ThrottledOctokit = Octokit.plugin(throttling);

/** The longest wait for GitHub's rate limit to reset that a request sits out, in seconds. */
const MAX_RATE_LIMIT_WAIT_S = 60;

export interface Repository {
  id: number;
  fullName: string;
  name: string;
  description: string | null;
  homepage: string | null;
  private: boolean;
  defaultBranch: string;
  htmlUrl: string;
}

export interface Commit {
  sha: string;
  message: string;
  author: string;
  url: string;
  at: string;
}

export interface GitHubAppSettings {
  appId: number;
  slug: string;
  clientId: string;
  clientSecret: string;
  privateKey: string;
}

export interface GitHubApp {
  /** The app's install page on GitHub, carrying `state` back to its callback. */
  installUrl(state: string): string;
  /** A token for the installation's repositories; `GitHubRefusedError` once it is uninstalled or suspended. */
  installationToken(installationId: number): Promise<string>;
  /**
   * The installation as GitHub has it now (not as a delivery said it became), with a token made for
   * the asking when it is active; fails when GitHub cannot be asked.
   */
  installationState(
    installationId: number,
  ): Promise<{ state: 'active'; token: string } | { state: 'suspended' } | { state: 'deleted' }>;
  /** The installing user's token for the code GitHub gave the callback; null for a code GitHub refuses. */
  userToken(code: string): Promise<string | null>;
}

/** GitHub's answer that the caller's rate limit is used up (403 or 429 with none left, or a wait asked for). */
function rateLimited(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  const headers = (error as { response?: { headers?: Record<string, string | undefined> } }).response?.headers ?? {};
  return (status === 403 || status === 429) && (headers['x-ratelimit-remaining'] === '0' || !!headers['retry-after']);
}

/**
 * GitHub's web address for its API's: github.com's for api.github.com, an Enterprise Server's without
 * its `/api/v3` (as `@octokit/oauth-methods` finds it).
 */
export function githubWebUrl(apiUrl: string): string {
  const base = apiUrl.replace(/\/+$/, '');
  if (/^https:\/\/(api\.)?github\.com$/.test(base)) return 'https://github.com';
  if (/^https:\/\/api\..*\.ghe\.com$/.test(base)) return base.replace('api.', '');
  return base.replace(/\/api\/v3$/, '');
}

/** GitHub refused the token: revoked, expired, or without access to what was asked. */
export class GitHubRefusedError extends AppError {
  readonly upstreamStatus: number;
  constructor(status: number) {
    super(
      409,
      'GITHUB_RECONNECT',
      'GitHub no longer accepts this connection’s token (revoked or expired). Connect GitHub again with a new token.',
    );
    this.upstreamStatus = status;
  }
}

export class GitHubUnavailableError extends AppError {
  constructor(message: string) {
    super(502, 'GITHUB_UPSTREAM_FAILED', message);
  }
}

export class GitHubApi {
  readonly #outbound: Outbound;

  constructor(outbound: Outbound) {
    this.#outbound = outbound;
  }

  /** Why this API address can never be called (a private one), or null. */
  refusalOf(apiUrl: string): string | null {
    return this.#outbound.refusalOf(new URL(apiUrl));
  }

  #client(apiUrl: string, token: string) {
    return new ThrottledOctokit({
      auth: token,
      baseUrl: apiUrl.replace(/\/+$/, ''),
      userAgent: 'Shiplog',
      request: { fetch: this.#outbound.fetch, retries: 0 },
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      throttle: {
        onRateLimit: (retryAfter, _options, _octokit, retryCount) =>
          retryCount === 0 && retryAfter <= MAX_RATE_LIMIT_WAIT_S,
        onSecondaryRateLimit: (retryAfter, _options, _octokit, retryCount) =>
          retryCount === 0 && retryAfter <= MAX_RATE_LIMIT_WAIT_S,
      },
    });
  }

  /** Runs `call`, its failures as the person can act on them. */
  async #call<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.#failure(error);
    }
  }

  #failure(error: unknown): Error {
    if (error instanceof RefusedAddressError) return new GitHubUnavailableError(error.message);
    const status = (error as { status?: number }).status;
    const headers = (error as { response?: { headers?: Record<string, string | undefined> } }).response?.headers ?? {};
    if (status === 401) return new GitHubRefusedError(status);
    if (rateLimited(error)) {
      const reset = Number(headers['x-ratelimit-reset']);
      const until = Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : '';
      return new AppError(503, 'GITHUB_RATE_LIMITED', `GitHub’s rate limit for this token is used up${until}.`);
    }
    if (typeof status === 'number' && status < 500)
      return new GitHubUnavailableError(`GitHub answered ${status}: ${(error as Error).message}`);
    return new GitHubUnavailableError(`GitHub could not be reached: ${(error as Error).message}`);
  }

  /** Who the token is: GitHub's answer to `GET /user`. */
  async login(apiUrl: string, token: string): Promise<string> {
    const { data } = await this.#call(() => this.#client(apiUrl, token).rest.users.getAuthenticated());
    return data.login;
  }

  /**
   * The repositories the token reaches (at most `max`): a user's, most recently pushed first; an
   * installation's, those it was given.
   */
  async repositories(apiUrl: string, token: string, kind: 'user' | 'installation', max = 300): Promise<Repository[]> {
    const client = this.#client(apiUrl, token);
    const found: Repository[] = [];
    await this.#call(async () => {
      const pages =
        kind === 'user'
          ? client.paginate.iterator(client.rest.repos.listForAuthenticatedUser, { per_page: 100, sort: 'pushed' })
          : client.paginate.iterator(client.rest.apps.listReposAccessibleToInstallation, { per_page: 100 });
      for await (const page of pages) {
        found.push(...page.data.map(repositoryOf));
        if (found.length >= max) break;
      }
    });
    return found.slice(0, max);
  }

  /** The installations of the app that the user's token (from the app's OAuth) may reach. */
  async installationsOf(apiUrl: string, userToken: string): Promise<number[]> {
    const client = this.#client(apiUrl, userToken);
    return this.#call(async () =>
      (await client.paginate(client.rest.apps.listInstallationsForAuthenticatedUser, { per_page: 100 })).map(
        (installation) => installation.id,
      ),
    );
  }

  /**
   * The server's GitHub App on the GitHub at `apiUrl`, as `@octokit/auth-app` signs for it: its
   * installations' tokens (made when needed, kept until near their hour's end) and the OAuth exchange
   * of an install's code for the installing user's token.
   */
  app(apiUrl: string, settings: GitHubAppSettings): GitHubApp {
    const request = new Octokit({
      baseUrl: apiUrl.replace(/\/+$/, ''),
      userAgent: 'Shiplog',
      request: { fetch: this.#outbound.fetch, retries: 0 },
    }).request;
    const auth = createAppAuth({
      appId: settings.appId,
      privateKey: settings.privateKey,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      request,
    });
    /** The installation as GitHub answers a token asked for it: made (`refresh`: not one kept from before). */
    const installation = async (
      installationId: number,
      refresh: boolean,
    ): Promise<{ state: 'active'; token: string } | { state: 'suspended' } | { state: 'deleted' }> => {
      try {
        return { state: 'active', token: (await auth({ type: 'installation', installationId, refresh })).token };
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status === 403 && !rateLimited(error)) return { state: 'suspended' };
        if (status === 404) return { state: 'deleted' };
        throw this.#failure(error);
      }
    };
    return {
      installUrl: (state) =>
        `${githubWebUrl(apiUrl)}/apps/${settings.slug}/installations/new?state=${encodeURIComponent(state)}`,
      installationToken: async (installationId) => {
        const found = await installation(installationId, false);
        // Uninstalled (404) or suspended (403): the user installs it again.
        if (found.state !== 'active') throw new GitHubRefusedError(found.state === 'deleted' ? 404 : 403);
        return found.token;
      },
      // A token made now: one kept from before the installation changed would say nothing.
      installationState: (installationId) => installation(installationId, true),
      userToken: async (code) => {
        try {
          return (await auth({ type: 'oauth-user', code })).token;
        } catch (error) {
          if ((error as { status?: number }).status === 400) return null;
          throw this.#failure(error);
        }
      },
    };
  }

  async repository(apiUrl: string, token: string, fullName: string): Promise<Repository> {
    const [owner, repo] = fullName.split('/') as [string, string];
    const { data } = await this.#call(() => this.#client(apiUrl, token).rest.repos.get({ owner, repo }));
    return repositoryOf(data);
  }

  /** Whether the token reaches the repository now (GitHub answers 404 for one it does not). */
  async reaches(apiUrl: string, token: string, fullName: string): Promise<boolean> {
    const [owner, repo] = fullName.split('/') as [string, string];
    try {
      await this.#client(apiUrl, token).rest.repos.get({ owner, repo });
      return true;
    } catch (error) {
      if ((error as { status?: number }).status === 404) return false;
      throw this.#failure(error);
    }
  }

  /**
   * A webhook on the repository for the events Shiplog records, sent to `url` and signed with
   * `secret`; false when the token may not make one (the user adds it by hand).
   */
  async createHook(apiUrl: string, token: string, fullName: string, url: string, secret: string): Promise<boolean> {
    const [owner, repo] = fullName.split('/') as [string, string];
    try {
      await this.#client(apiUrl, token).rest.repos.createWebhook({
        owner,
        repo,
        name: 'web',
        active: true,
        events: HOOK_EVENTS,
        config: { url, content_type: 'json', secret, insecure_ssl: '0' },
      });
      return true;
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 403 || status === 404) return false;
      throw this.#failure(error);
    }
  }

  /** The newest commit on `branch`, or null for an empty repository. */
  async lastCommit(apiUrl: string, token: string, fullName: string, branch: string): Promise<Commit | null> {
    const [owner, repo] = fullName.split('/') as [string, string];
    const { data } = await this.#call(() =>
      this.#client(apiUrl, token).rest.repos.listCommits({ owner, repo, sha: branch, per_page: 1 }),
    );
    const commit = data[0];
    return commit ? commitOf(commit) : null;
  }

  /**
   * The commits from `base` (exclusive) to `head`, oldest first (at most `max`), and the comparison's
   * page on GitHub; with no `base`, the newest `max` commits up to `head`.
   */
  async commitsBetween(
    apiUrl: string,
    token: string,
    fullName: string,
    base: string | null,
    head: string,
    max = 250,
  ): Promise<{ url: string | null; commits: Commit[] }> {
    const [owner, repo] = fullName.split('/') as [string, string];
    const client = this.#client(apiUrl, token);
    if (base) {
      const { data } = await this.#call(() =>
        client.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}`, per_page: max }),
      );
      return { url: data.html_url, commits: data.commits.slice(-max).map(commitOf) };
    }
    const { data } = await this.#call(() => client.rest.repos.listCommits({ owner, repo, sha: head, per_page: 50 }));
    return { url: null, commits: data.map(commitOf).reverse() };
  }
}

type GitHubCommit = {
  sha: string;
  html_url: string;
  commit: { message: string; author?: { name?: string; date?: string } | null; committer?: { date?: string } | null };
  author?: { login?: string } | null;
};

function commitOf(commit: GitHubCommit): Commit {
  return {
    sha: commit.sha,
    message: commit.commit.message.slice(0, 1000),
    author: commit.author?.login ?? commit.commit.author?.name ?? 'unknown',
    url: commit.html_url,
    at: commit.commit.author?.date ?? commit.commit.committer?.date ?? new Date(0).toISOString(),
  };
}

/** What a repository's webhook sends Shiplog. */
export const HOOK_EVENTS = ['release', 'deployment_status', 'push', 'workflow_run'];

type GitHubRepository = {
  id: number;
  full_name: string;
  name: string;
  description: string | null;
  homepage?: string | null;
  private: boolean;
  default_branch?: string;
  html_url: string;
};

function repositoryOf(data: GitHubRepository): Repository {
  return {
    id: data.id,
    fullName: data.full_name,
    name: data.name,
    description: data.description,
    homepage: data.homepage || null,
    private: data.private,
    defaultBranch: data.default_branch ?? 'main',
    htmlUrl: data.html_url,
  };
}
