import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The project's stand-in for GitHub: the REST API paths Shiplog's client (`@octokit/rest`) calls,
 * answered as GitHub answers them, and webhook deliveries sent as GitHub sends them (its headers, the
 * `X-Hub-Signature-256` HMAC of the body with the hook's secret, and redeliveries with the same
 * delivery id). One account (`login`) with its repositories; any other token is 401 "Bad credentials",
 * as a revoked one is.
 *
 * - `GET /user`, `GET /user/repos` (paged by `per_page`/`page`, with a `link` header), `GET /repos/{o}/{r}`
 * - `GET /repos/{o}/{r}/commits?sha=` (newest first), `GET /repos/{o}/{r}/compare/{base}...{head}`
 * - `GET /repos/{o}/{r}/releases/latest`
 * - `POST /repos/{o}/{r}/hooks` (403 "Resource not accessible by personal access token" while
 *   `hooksAllowed` is false, as for a token without the webhooks permission), `GET …/hooks`
 *
 * Every answer carries GitHub's rate-limit headers; `rateLimited` answers 403 with none left.
 */
export interface StandInCommit {
  sha: string;
  message: string;
  author: string;
  date: string;
}

export interface StandInRepository {
  id: number;
  name: string;
  description: string | null;
  homepage: string | null;
  private: boolean;
  defaultBranch: string;
  /** The default branch's commits, oldest first. */
  commits: StandInCommit[];
  /** Each release, with the commit its tag names. */
  releases: { id: number; tag: string; name: string; body: string; publishedAt: string; sha: string }[];
}

export interface StandInHook {
  id: number;
  repository: string;
  url: string;
  secret: string;
  events: string[];
}

export interface DeliveryOptions {
  /** The delivery's id (`X-GitHub-Delivery`); a new one when not said. */
  deliveryId?: string;
  /** Sign with this secret instead of the hook's (a forged delivery); null: unsigned. */
  secret?: string | null;
}

export interface GitHubStandIn {
  url: string;
  /** `host:port`, for INTEGRATION_ALLOWED_HOSTS. */
  host: string;
  login: string;
  token: string;
  repositories: Map<string, StandInRepository>;
  hooks: StandInHook[];
  hooksAllowed: boolean;
  rateLimited: boolean;
  /**
   * The origin deliveries are sent to in place of the hook URL's own (the path kept): Shiplog's
   * address as the test reaches it, when the URL it gave GitHub names the address it is served at.
   */
  deliverTo: string | null;
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  /** A repository of the account's, `login/name`, with one commit on its default branch. */
  addRepository(name: string, fields?: Partial<Omit<StandInRepository, 'id' | 'name'>>): StandInRepository;
  /** A commit on the default branch: the next push's head. */
  commit(repository: string, message: string, author?: string): StandInCommit;
  /**
   * Sends `event` with `payload` (the repository and sender added) to every hook of the repository, or
   * to `url` with `secret` for one made by hand; answers each delivery's status and id.
   */
  deliver(
    repository: string,
    event: string,
    payload: Record<string, unknown>,
    options?: DeliveryOptions & { url?: string; hookSecret?: string },
  ): Promise<{ status: number; deliveryId: string; body: string }[]>;
  /** The same delivery again, byte for byte (GitHub's "Redeliver"). */
  redeliver(deliveryId: string): Promise<number>;
  /** A release published on the repository, and its delivery. */
  publishRelease(repository: string, tag: string, body: string): Promise<{ status: number; deliveryId: string }[]>;
  stop(): Promise<void>;
}

export async function startGitHubStandIn(options: { login?: string; token?: string } = {}): Promise<GitHubStandIn> {
  let nextId = 1000;
  const sent = new Map<string, { url: string; headers: Record<string, string>; body: string }>();
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res
      .writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': stand.rateLimited ? '0' : '4999',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
        'x-ratelimit-resource': 'core',
        ...headers,
      })
      .end(JSON.stringify(body));

  const owner = () => ({ login: stand.login, id: 1, type: 'User', html_url: `${stand.url}/${stand.login}` });
  const repoJson = (repo: StandInRepository) => ({
    id: repo.id,
    name: repo.name,
    full_name: `${stand.login}/${repo.name}`,
    owner: owner(),
    private: repo.private,
    description: repo.description,
    homepage: repo.homepage,
    default_branch: repo.defaultBranch,
    html_url: `https://github.example/${stand.login}/${repo.name}`,
    pushed_at: repo.commits.at(-1)?.date ?? null,
  });
  const commitJson = (repo: StandInRepository, commit: StandInCommit) => ({
    sha: commit.sha,
    html_url: `https://github.example/${stand.login}/${repo.name}/commit/${commit.sha}`,
    commit: {
      message: commit.message,
      author: { name: commit.author, email: `${commit.author}@example.com`, date: commit.date },
      committer: { name: commit.author, email: `${commit.author}@example.com`, date: commit.date },
    },
    author: { login: commit.author, id: 2, type: 'User' },
  });
  const releaseJson = (repo: StandInRepository, release: StandInRepository['releases'][number]) => ({
    id: release.id,
    tag_name: release.tag,
    name: release.name,
    body: release.body,
    draft: false,
    prerelease: false,
    published_at: release.publishedAt,
    html_url: `https://github.example/${stand.login}/${repo.name}/releases/tag/${release.tag}`,
  });

  const server = createServer((req, res) => {
    stand.requests.push({ method: req.method ?? 'GET', url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token !== stand.token)
      return json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    if (stand.rateLimited)
      return json(res, 403, {
        message: 'API rate limit exceeded for user ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      route(req.method ?? 'GET', url, body, res);
    });
  });

  function route(method: string, url: URL, body: Record<string, unknown>, res: ServerResponse) {
    const path = url.pathname.replace(/^\/api\/v3/, '');
    if (method === 'GET' && path === '/user') return json(res, 200, { ...owner(), name: stand.login });
    if (method === 'GET' && path === '/user/repos') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = [...stand.repositories.values()];
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const link =
        page < last
          ? { link: `<${stand.url}/user/repos?per_page=${perPage}&page=${page + 1}>; rel="next"` }
          : ({} as Record<string, string>);
      return json(res, 200, all.slice((page - 1) * perPage, page * perPage).map(repoJson), link);
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    const repo = match && match[1] === stand.login ? stand.repositories.get(match[2]!) : undefined;
    if (!match || !repo) return json(res, 404, { message: 'Not Found' });
    const rest = match[3] ?? '';
    const full = `${stand.login}/${repo.name}`;
    if (method === 'GET' && rest === '') return json(res, 200, repoJson(repo));
    if (method === 'GET' && rest === '/commits') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const upTo = resolve(repo, url.searchParams.get('sha') ?? repo.defaultBranch);
      if (upTo < 0) return json(res, 404, { message: 'No commit found for SHA' });
      return json(
        res,
        200,
        repo.commits
          .slice(0, upTo + 1)
          .reverse()
          .slice(0, perPage)
          .map((c) => commitJson(repo, c)),
      );
    }
    const compare = /^\/compare\/(.+?)\.\.\.(.+)$/.exec(rest);
    if (method === 'GET' && compare) {
      const base = resolve(repo, decodeURIComponent(compare[1]!));
      const head = resolve(repo, decodeURIComponent(compare[2]!));
      if (base < 0 || head < 0) return json(res, 404, { message: 'No common ancestor' });
      const commits = repo.commits.slice(base + 1, head + 1).map((c) => commitJson(repo, c));
      return json(res, 200, {
        status: 'ahead',
        ahead_by: commits.length,
        total_commits: commits.length,
        html_url: `https://github.example/${full}/compare/${compare[1]}...${compare[2]}`,
        commits,
      });
    }
    if (method === 'GET' && rest === '/releases/latest') {
      const release = repo.releases.at(-1);
      return release ? json(res, 200, releaseJson(repo, release)) : json(res, 404, { message: 'Not Found' });
    }
    if (method === 'GET' && rest === '/hooks')
      return json(
        res,
        200,
        stand.hooks
          .filter((h) => h.repository === full)
          .map((h) => ({ id: h.id, events: h.events, config: { url: h.url } })),
      );
    if (method === 'POST' && rest === '/hooks') {
      if (!stand.hooksAllowed) return json(res, 403, { message: 'Resource not accessible by personal access token' });
      const config = body.config as { url: string; secret: string; content_type: string };
      if (config.content_type !== 'json') return json(res, 422, { message: 'content_type must be json' });
      const hook = {
        id: nextId++,
        repository: full,
        url: config.url,
        secret: config.secret,
        events: (body.events as string[]) ?? ['push'],
      };
      stand.hooks.push(hook);
      return json(res, 201, { id: hook.id, events: hook.events, active: true, config: { url: hook.url } });
    }
    return json(res, 404, { message: 'Not Found' });
  }

  /** Where a ref points, as an index of the default branch's commits: a sha, a release's tag, or the branch. */
  function resolve(repo: StandInRepository, ref: string): number {
    const bySha = repo.commits.findIndex((c) => c.sha === ref);
    if (bySha >= 0) return bySha;
    const release = repo.releases.find((r) => r.tag === ref);
    if (release) return repo.commits.findIndex((c) => c.sha === release.sha);
    return ref === repo.defaultBranch ? repo.commits.length - 1 : -1;
  }

  async function post(url: string, headers: Record<string, string>, body: string) {
    const target = stand.deliverTo ? new URL(new URL(url).pathname, stand.deliverTo) : url;
    const response = await fetch(target, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text() };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stand: GitHubStandIn = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    login: options.login ?? 'octo-builder',
    token: options.token ?? `github_pat_${'A'.repeat(22)}_${'b'.repeat(59)}`,
    repositories: new Map(),
    hooks: [],
    hooksAllowed: true,
    rateLimited: false,
    deliverTo: null,
    requests: [],
    addRepository(name, fields = {}) {
      const repo: StandInRepository = {
        id: nextId++,
        name,
        description: null,
        homepage: null,
        private: false,
        defaultBranch: 'main',
        commits: [],
        releases: [],
        ...fields,
      };
      stand.repositories.set(name, repo);
      if (repo.commits.length === 0) stand.commit(`${stand.login}/${name}`, 'Initial commit');
      return repo;
    },
    commit(repository, message, author = stand.login) {
      const repo = stand.repositories.get(repository.split('/')[1]!)!;
      const commit = {
        sha: createHmac('sha1', 'commits').update(`${repository}:${repo.commits.length}:${message}`).digest('hex'),
        message,
        author,
        date: new Date(Date.now() + repo.commits.length).toISOString(),
      };
      repo.commits.push(commit);
      return commit;
    },
    async deliver(repository, event, payload, opts = {}) {
      const repo = stand.repositories.get(repository.split('/')[1]!);
      const targets = opts.url
        ? [{ id: 1, url: opts.url, secret: opts.hookSecret ?? '' }]
        : stand.hooks.filter((h) => h.repository === repository);
      const results = [];
      for (const hook of targets) {
        const deliveryId = opts.deliveryId ?? randomUUID();
        const body = JSON.stringify({
          ...payload,
          ...(repo ? { repository: repoJson(repo) } : {}),
          sender: owner(),
        });
        const secret = opts.secret === undefined ? hook.secret : opts.secret;
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/stand-in',
          'x-github-event': event,
          'x-github-delivery': deliveryId,
          'x-github-hook-id': String(hook.id),
          ...(secret === null
            ? {}
            : { 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }),
        };
        sent.set(deliveryId, { url: hook.url, headers, body });
        const answer = await post(hook.url, headers, body);
        results.push({ status: answer.status, deliveryId, body: answer.body });
      }
      return results;
    },
    async redeliver(deliveryId) {
      const delivery = sent.get(deliveryId);
      if (!delivery) throw new Error(`No delivery ${deliveryId}`);
      return (await post(delivery.url, delivery.headers, delivery.body)).status;
    },
    async publishRelease(repository, tag, body) {
      const repo = stand.repositories.get(repository.split('/')[1]!)!;
      const release = {
        id: nextId++,
        tag,
        name: tag,
        body,
        publishedAt: new Date().toISOString(),
        sha: repo.commits.at(-1)!.sha,
      };
      repo.releases.push(release);
      return stand.deliver(repository, 'release', {
        action: 'published',
        release: { ...releaseJson(repo, release), target_commitish: repo.defaultBranch },
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
