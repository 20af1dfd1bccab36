import { createHmac, generateKeyPairSync, randomBytes, randomUUID, verify } from 'node:crypto';
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
 *
 * And a GitHub App of the account's (`app`), as a self-hoster registers one: its install page
 * (`/apps/{slug}/installations/new`, a button that installs it on the account and sends the browser to
 * the app's callback URL with `code`, `installation_id`, `setup_action` and the `state` it was given),
 * the OAuth code exchange (`POST /login/oauth/access_token`), `GET /user/installations` with the user's
 * token, installation tokens for the app's RS256 JWT (`POST /app/installations/{id}/access_tokens`),
 * `GET /installation/repositories` with one, and the app's own webhook, which every event of the
 * account's repositories reaches with the installation named, signed with the app's webhook secret.
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

/** A delivery as sent: Shiplog's answer (status and body) and GitHub's id for it. */
export interface Delivery {
  status: number;
  deliveryId: string;
  body: string;
}

export interface StandInApp {
  id: number;
  slug: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** PKCS#8 PEM, as GitHub hands it to the app's owner. */
  privateKey: string;
  /** Where the install sends the browser (the app's "Callback URL"); set by the test. */
  callbackUrl: string | null;
  /** The app's webhook URL; set by the test. Its deliveries go to `deliverTo` as the hooks' do. */
  webhookUrl: string | null;
  /** Installed on the account: the installation's id, or null. */
  installationId: number | null;
  /** Suspended by the account: its tokens are refused (403) and no new one is made. */
  suspended: boolean;
  /** The repositories the account took out of its reach (by name): it neither lists, reads nor hears them. */
  outOfReach: Set<string>;
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
  app: StandInApp;
  /** Installs the app on the account (as its install page's button does): the installation's id. */
  install(): number;
  /** The app removed from the account: its installation's tokens stop working. */
  uninstall(): Promise<void>;
  /**
   * The installation suspended by the account, and delivered as GitHub does; then unsuspended. Each
   * answers its delivery (`redeliver` sends it again, as GitHub's late or repeated deliveries come).
   */
  suspend(): Promise<Delivery[]>;
  unsuspend(): Promise<Delivery[]>;
  /** The account takes a repository out of the installation's reach, or gives it back, delivered as GitHub does. */
  reach(repository: string, reachable: boolean): Promise<Delivery[]>;
  /** A one-time OAuth code for the account, as the install page hands the callback. */
  authorizationCode(): string;
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
  ): Promise<Delivery[]>;
  /** The same delivery again, byte for byte (GitHub's "Redeliver"). */
  redeliver(deliveryId: string): Promise<number>;
  /** A release published on the repository, and its delivery. */
  publishRelease(repository: string, tag: string, body: string): Promise<Delivery[]>;
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
    const path = url.pathname.replace(/^\/api\/v3/, '');
    const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    // The app's pages and OAuth are GitHub's web, not its API: no token, no rate limit.
    if (req.method === 'GET' && path === `/apps/${stand.app.slug}/installations/new`) return installPage(url, res);
    if (req.method === 'POST' && path === `/apps/${stand.app.slug}/installations`)
      return withBody(req, (body) => installed(body, res));
    if (req.method === 'POST' && path === '/login/oauth/access_token')
      return withBody(req, (body) => exchange(body, res));
    const caller = callerOf(token);
    if (!caller)
      return json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    if (stand.app.suspended && caller === 'installation') return suspended(res);
    if (stand.rateLimited)
      return json(res, 403, {
        message: 'API rate limit exceeded for user ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      });
    withBody(req, (body) => route(req.method ?? 'GET', url, path, caller, body, res));
  });

  function withBody(req: IncomingMessage, then: (body: Record<string, unknown>) => void) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (!text) return then({});
      then(
        (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')
          ? Object.fromEntries(new URLSearchParams(text))
          : (JSON.parse(text) as Record<string, unknown>),
      );
    });
  }

  /**
   * Who a request's credential is: the account's personal token or an OAuth user token ('user'), an
   * installation token of the app's ('installation'), the app itself by a JWT its private key signed
   * ('app'), or nobody.
   */
  function callerOf(token: string | undefined): 'user' | 'installation' | 'app' | null {
    if (!token) return null;
    if (token === stand.token || userTokens.has(token)) return 'user';
    if (installationTokens.has(token)) return stand.app.installationId !== null ? 'installation' : null;
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature) return null;
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) return null;
    // Signed with the app's key, so its payload is the JSON the client wrote.
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown; exp?: number };
    return String(claims.iss) === String(stand.app.id) && (claims.exp ?? 0) > Date.now() / 1000 ? 'app' : null;
  }

  function installPage(url: URL, res: ServerResponse) {
    const state = url.searchParams.get('state') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><title>Install ${stand.app.slug}</title><h1>Install ${stand.app.slug} on ${stand.login}</h1>
<form method="post" action="/apps/${stand.app.slug}/installations"><input type="hidden" name="state" value="${state.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}">
<button>Install</button></form>`,
    );
  }

  /** The install page's button: the app installed, the browser sent to its callback URL. */
  function installed(body: Record<string, unknown>, res: ServerResponse) {
    const id = stand.install();
    const target = new URL(stand.app.callbackUrl ?? 'http://callback.invalid/');
    target.searchParams.set('code', stand.authorizationCode());
    target.searchParams.set('installation_id', String(id));
    target.searchParams.set('setup_action', 'install');
    if (body.state) target.searchParams.set('state', String(body.state));
    res.writeHead(302, { location: target.href }).end();
  }

  function exchange(body: Record<string, unknown>, res: ServerResponse) {
    const code = String(body.code ?? '');
    if (body.client_id !== stand.app.clientId || body.client_secret !== stand.app.clientSecret)
      return json(res, 200, {
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
        error_uri: 'https://docs.github.com/apps',
      });
    if (!codes.delete(code))
      return json(res, 200, {
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
        error_uri: 'https://docs.github.com/apps',
      });
    const token = `ghu_${randomBytes(18).toString('hex')}`;
    userTokens.add(token);
    return json(res, 200, { access_token: token, token_type: 'bearer', scope: '' });
  }

  /** What GitHub answers a suspended installation's tokens, and a request for a new one. */
  const suspended = (res: ServerResponse) =>
    json(res, 403, {
      message: 'This installation has been suspended',
      documentation_url: 'https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app',
    });

  const installationJson = () => ({
    id: stand.app.installationId,
    account: owner(),
    app_id: stand.app.id,
    app_slug: stand.app.slug,
    target_type: 'User',
    repository_selection: 'all',
    permissions: { contents: 'read', metadata: 'read', deployments: 'read', actions: 'read' },
    events: ['release', 'deployment_status', 'push', 'workflow_run'],
  });

  function route(
    method: string,
    url: URL,
    path: string,
    caller: 'user' | 'installation' | 'app',
    body: Record<string, unknown>,
    res: ServerResponse,
  ) {
    const tokens = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
    if (method === 'POST' && tokens) {
      if (caller !== 'app')
        return json(res, 401, {
          message: 'A JSON web token could not be decoded',
          documentation_url: 'https://docs.github.com/rest',
        });
      if (Number(tokens[1]) !== stand.app.installationId) return json(res, 404, { message: 'Not Found' });
      if (stand.app.suspended) return suspended(res);
      const token = `ghs_${randomBytes(18).toString('hex')}`;
      installationTokens.add(token);
      return json(res, 201, {
        token,
        expires_at: new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
        permissions: installationJson().permissions,
        repository_selection: 'all',
      });
    }
    if (caller === 'app') return json(res, 403, { message: 'A JSON web token is not accepted here' });
    if (method === 'GET' && path === '/user/installations') {
      if (caller !== 'user') return json(res, 403, { message: 'Resource not accessible by integration' });
      const installations = stand.app.installationId === null ? [] : [installationJson()];
      return json(res, 200, { total_count: installations.length, installations });
    }
    if (method === 'GET' && path === '/installation/repositories') {
      if (caller !== 'installation')
        return json(res, 403, { message: 'Resource not accessible by personal access token' });
      const all = [...stand.repositories.values()].filter((repo) => !stand.app.outOfReach.has(repo.name));
      const selection = stand.app.outOfReach.size > 0 ? 'selected' : 'all';
      return json(res, 200, {
        total_count: all.length,
        repository_selection: selection,
        repositories: all.map(repoJson),
      });
    }
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
    // Out of the installation's reach, a repository is not there for its tokens.
    if (caller === 'installation' && stand.app.outOfReach.has(repo.name))
      return json(res, 404, { message: 'Not Found' });
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

  /** Each target's delivery of `event`: signed, kept for `redeliver`, and answered. */
  async function send(
    targets: { id: number; url: string; secret: string; installation?: number }[],
    repo: StandInRepository | undefined,
    event: string,
    payload: Record<string, unknown>,
    opts: DeliveryOptions,
  ): Promise<Delivery[]> {
    const results = [];
    for (const hook of targets) {
      const deliveryId = opts.deliveryId ?? randomUUID();
      const body = JSON.stringify({
        ...payload,
        ...(repo ? { repository: repoJson(repo) } : {}),
        sender: owner(),
        // A repository's event names the installation by id; an installation's own event carries it whole.
        ...(hook.installation === undefined || payload.installation
          ? {}
          : { installation: { id: hook.installation, node_id: 'MDIz' } }),
      });
      const secret = opts.secret === undefined ? hook.secret : opts.secret;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/stand-in',
        'x-github-event': event,
        'x-github-delivery': deliveryId,
        'x-github-hook-id': String(hook.id),
        'x-github-hook-installation-target-type': hook.installation === undefined ? 'repository' : 'integration',
        ...(secret === null
          ? {}
          : { 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }),
      };
      sent.set(deliveryId, { url: hook.url, headers, body });
      const answer = await post(hook.url, headers, body);
      results.push({ status: answer.status, deliveryId, body: answer.body });
    }
    return results;
  }

  /**
   * What the account did to the installation `id`, to the app's webhook, sent as GitHub sends it: once
   * the change is made (a token asked for on hearing it meets the installation as it now is).
   */
  function installationEvent(event: string, payload: Record<string, unknown>, id: number): Promise<Delivery[]> {
    const app = stand.app;
    if (!app.webhookUrl) return Promise.resolve([]);
    return send(
      [{ id: app.id, url: app.webhookUrl, secret: app.webhookSecret, installation: id }],
      undefined,
      event,
      { ...payload, installation: { ...installationJson(), id } },
      {},
    );
  }

  async function post(url: string, headers: Record<string, string>, body: string) {
    const target = stand.deliverTo ? new URL(new URL(url).pathname, stand.deliverTo) : url;
    const response = await fetch(target, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text() };
  }

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const codes = new Set<string>();
  const userTokens = new Set<string>();
  const installationTokens = new Set<string>();

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
    app: {
      id: 4242,
      slug: 'shiplog-stand-in',
      clientId: `Iv23${randomBytes(8).toString('hex')}`,
      clientSecret: randomBytes(20).toString('hex'),
      webhookSecret: randomBytes(20).toString('hex'),
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      callbackUrl: null,
      webhookUrl: null,
      installationId: null,
      suspended: false,
      outOfReach: new Set(),
    },
    install() {
      stand.app.installationId ??= nextId++;
      return stand.app.installationId;
    },
    async uninstall() {
      const id = stand.app.installationId;
      if (id === null) return;
      stand.app.installationId = null;
      installationTokens.clear();
      await installationEvent('installation', { action: 'deleted' }, id);
    },
    suspend() {
      stand.app.suspended = true;
      return installationEvent('installation', { action: 'suspend' }, stand.app.installationId!);
    },
    unsuspend() {
      stand.app.suspended = false;
      return installationEvent('installation', { action: 'unsuspend' }, stand.app.installationId!);
    },
    reach(repository, reachable) {
      const name = repository.split('/')[1]!;
      const repo = stand.repositories.get(name)!;
      if (reachable) stand.app.outOfReach.delete(name);
      else stand.app.outOfReach.add(name);
      return installationEvent(
        'installation_repositories',
        {
          action: reachable ? 'added' : 'removed',
          repository_selection: 'selected',
          repositories_added: reachable ? [repoJson(repo)] : [],
          repositories_removed: reachable ? [] : [repoJson(repo)],
        },
        stand.app.installationId!,
      );
    },
    authorizationCode() {
      const code = randomBytes(10).toString('hex');
      codes.add(code);
      return code;
    },
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
      const app = stand.app;
      return send(
        opts.url
          ? [{ id: 1, url: opts.url, secret: opts.hookSecret ?? '' }]
          : [
              ...stand.hooks.filter((h) => h.repository === repository),
              // The app's one webhook hears every repository of the account it is installed on and reaches.
              ...(app.installationId !== null && app.webhookUrl && !app.outOfReach.has(repository.split('/')[1] ?? '')
                ? [{ id: app.id, url: app.webhookUrl, secret: app.webhookSecret, installation: app.installationId }]
                : []),
            ],
        stand.repositories.get(repository.split('/')[1]!),
        event,
        payload,
        opts,
      );
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
