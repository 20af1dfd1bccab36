import { randomBytes, randomUUID } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { AppError, NotFoundError, ValidationError } from '@shiplog/errors';
import { Outbound } from '@shiplog/outbound';
import type {
  CreateProjectInput,
  GitHubConnectedView,
  GitHubConnectionView,
  GitHubImportView,
  Project,
  ProjectRepositoryView,
  Shipped,
  WorkspaceRole,
} from '@shiplog/schemas';
import {
  afterOf,
  type Caller,
  callerOf,
  devSecret,
  handleCommand,
  IDEMPOTENCY_HEADER,
  loadAggregate,
  POSITION_HEADER,
  parsePositions,
  reportPosition,
  reportPositions,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import { SecretBox } from '@shiplog/vault';
import type { Request, Response } from 'express';
import { type Commit, GitHubApi, type GitHubApp, GitHubRefusedError, type Repository } from '../adapters/github.ts';
import type { IntegrationsEnv } from '../env.ts';
import { type GitHubCommand, githubDecider, notConnected } from './decide.ts';
import { type DeliveryMeaning, meaningOf, shippedOf } from './deliveries.ts';
import { type GitHubAccount, type GitHubConnection, githubStream, type RepositoryLink } from './github.ts';
import { githubTables, type LinkRow } from './links.ts';
import { githubRoutes } from './routes.ts';

/** Commands racing on one user's stream (an import and a link) are decided again. */
const RACE_RETRIES = 5;

/**
 * GitHub joined to projects. The token and the webhook secret are sealed with INTEGRATION_KEY_SECRET
 * before they enter an event (GitHubCredentialsSet, never published), the event sealed again with the
 * user's key; opened only to call GitHub and to check a delivery's signature, never answered (but the
 * secret once, at connection, for a webhook added by hand), logged or put on the bus. What GitHub
 * delivers is recorded through the projects service's own calls, as the connection's owner, keyed by
 * GitHub's id of the release or of the deployment's status: a redelivery records nothing more.
 */
export function githubApi(context: ServiceContext<IntegrationsEnv>) {
  const { store, services, config, metrics, pool } = context;
  const box = new SecretBox(config.INTEGRATION_KEY_SECRET ?? devSecret('INTEGRATION_KEY_SECRET'), 'github');
  const outbound = new Outbound({
    allowedHosts: config.INTEGRATION_ALLOWED_HOSTS,
    timeoutMs: config.INTEGRATION_TIMEOUT_MS,
    observe: (outcome) => metrics.outbound('github', outcome),
  });
  const github = new GitHubApi(outbound);
  const hookUrl = (hookKey: string) => `${config.APP_URL.replace(/\/$/, '')}/api/hooks/github/${hookKey}`;
  /** The operator's GitHub App, on GITHUB_API_URL's GitHub, when one is set up (all its settings given). */
  const app: GitHubApp | null =
    config.GITHUB_APP_ID &&
    config.GITHUB_APP_SLUG &&
    config.GITHUB_APP_CLIENT_ID &&
    config.GITHUB_APP_CLIENT_SECRET &&
    config.GITHUB_APP_PRIVATE_KEY
      ? github.app(config.GITHUB_API_URL, {
          appId: config.GITHUB_APP_ID,
          slug: config.GITHUB_APP_SLUG,
          clientId: config.GITHUB_APP_CLIENT_ID,
          clientSecret: config.GITHUB_APP_CLIENT_SECRET,
          privateKey: config.GITHUB_APP_PRIVATE_KEY,
        })
      : null;
  /** An install's `state`: its expiry, sealed to the user who began it, so no one else can finish it. */
  const installStates = new SecretBox(
    config.INTEGRATION_KEY_SECRET ?? devSecret('INTEGRATION_KEY_SECRET'),
    'github-app-install',
  );
  const appNotSetUp = () =>
    new NotFoundError('This server has no GitHub App: connect with a token', 'GITHUB_APP_NOT_SET_UP');

  const load = async (userId: string) => (await loadAggregate(store, githubStream(userId), githubDecider)).state;
  const run = (caller: Caller, command: GitHubCommand) =>
    handleCommand(store, githubStream(command.userId), githubDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      retries: RACE_RETRIES,
      now: context.now(),
    });

  /**
   * The token a connection calls GitHub with: the user's own, opened; or, through the app, one for its
   * installation (`GitHubRefusedError` once it is uninstalled).
   */
  async function tokenOf(userId: string, connection: GitHubConnection): Promise<string> {
    if (connection.installationId !== null) {
      if (!app)
        throw new AppError(
          409,
          'GITHUB_RECONNECT',
          'This server’s GitHub App is no longer set up. Connect GitHub again with a token.',
        );
      return app.installationToken(connection.installationId);
    }
    const token = connection.sealedToken && box.open(userId, connection.sealedToken);
    if (!token)
      throw new AppError(
        409,
        'GITHUB_RECONNECT',
        'The GitHub token can no longer be read (the server’s INTEGRATION_KEY_SECRET changed). Connect GitHub again.',
      );
    return token;
  }

  /** The caller's working connection and its token; none is 404, a refused token 409 (connect again). */
  async function connectionOf(req: Request) {
    const userId = requireUserId(req);
    const state = await load(userId);
    const connection = state.connection;
    if (!connection) throw notConnected();
    if (connection.broken) throw new GitHubRefusedError(401);
    const token = await withToken(req, () => tokenOf(userId, connection));
    return { userId, state, connection, token };
  }

  /** Runs a call to GitHub; a token GitHub refuses marks the connection for reconnecting. */
  async function withToken<T>(req: Request, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof GitHubRefusedError)
        await run(callerOf(req), { type: 'MarkBroken', userId: requireUserId(req), status: error.upstreamStatus });
      throw error;
    }
  }

  function connectionView(state: GitHubAccount): GitHubConnectionView {
    const connection = state.connection;
    const viaApp = connection !== null && connection.installationId !== null;
    return {
      connected: connection !== null,
      login: connection?.login ?? null,
      apiUrl: connection?.apiUrl ?? null,
      via: connection ? (viaApp ? 'app' : 'token') : null,
      appAvailable: app !== null,
      reconnect: connection?.broken ?? false,
      webhookUrl: connection && !viaApp && state.hookKey ? hookUrl(state.hookKey) : null,
    };
  }

  const repositoryView = (row: LinkRow): ProjectRepositoryView => ({
    fullName: row.fullName,
    htmlUrl: row.htmlUrl,
    defaultBranch: row.defaultBranch,
    lastCommit: row.lastCommit,
    latestRelease: row.latestRelease,
    webhook: row.webhook,
    reachable: row.reachable,
  });

  /** The repository's webhook, made through the API when the token may, and its default branch's newest commit. */
  async function join(
    connection: GitHubConnection,
    token: string,
    state: GitHubAccount,
    projectId: string,
    repository: Repository,
  ): Promise<{ link: Omit<RepositoryLink, 'linkedAt'>; commit: Commit | null }> {
    const { apiUrl } = connection;
    // Through the app, its own webhook hears the repository: none is made on it.
    const secret = box.open(state.userId ?? '', state.sealedSecret ?? '') ?? '';
    const hook: RepositoryLink['hook'] =
      connection.installationId !== null
        ? 'app'
        : (await github.createHook(apiUrl, token, repository.fullName, hookUrl(state.hookKey ?? ''), secret))
          ? 'created'
          : 'manual';
    const commit = await github.lastCommit(apiUrl, token, repository.fullName, repository.defaultBranch);
    return {
      link: {
        projectId,
        repositoryId: repository.id,
        fullName: repository.fullName,
        htmlUrl: repository.htmlUrl,
        defaultBranch: repository.defaultBranch,
        hook,
      },
      commit,
    };
  }

  /** Records the links made, in the connection's stream and the tables deliveries read. */
  async function linked(req: Request, userId: string, joined: Awaited<ReturnType<typeof join>>[]) {
    const result = await run(callerOf(req), { type: 'Link', userId, links: joined.map((j) => j.link) });
    const links = joined.map((j) => result.state.links.get(j.link.projectId)).filter((l) => l !== undefined);
    await githubTables.linked(pool, userId, links, new Map(joined.map((j) => [j.link.projectId, j.commit])));
  }

  /**
   * The project, as the projects service answers the caller: their role on it, or null. After the
   * caller's own writes (a project made a moment ago), as the gateway's read-your-writes asks.
   */
  async function reach(projectId: string, userId: string, req: Request) {
    const caller: Caller = { userId, username: null, isAdmin: false, correlationId: callerOf(req).correlationId };
    const answer = await services.call<Project & { role: WorkspaceRole }>('projects', {
      method: 'GET',
      path: `/projects/${projectId}`,
      caller,
      after: afterOf(req),
    });
    if (answer.status !== 200) return null;
    const { id, userId: maker, workspaceId, name, role } = answer.body;
    return { id, userId: maker, workspaceId: workspaceId ?? null, name, role };
  }

  /**
   * What a release or deployment shipped: the commits since the repository's release before (or the
   * environment's deployment before), through GitHub's compare with the owner's token. Nothing when the
   * connection cannot ask (disconnected, its token refused), or GitHub does not answer: the record is
   * made without it.
   */
  async function shippedFor(
    owner: string,
    state: GitHubAccount,
    link: LinkRow,
    meaning: Extract<DeliveryMeaning, { kind: 'release' | 'deployment' }>,
  ): Promise<Shipped | undefined> {
    const connection = state.connection;
    if (!connection || connection.broken) return undefined;
    const [base, head] =
      meaning.kind === 'release'
        ? [link.latestRelease?.tag ?? null, meaning.version]
        : [link.deployed[meaning.environment] ?? null, meaning.sha];
    if (base === head) return undefined;
    try {
      const token = await tokenOf(owner, connection);
      const { url, commits } = await github.commitsBetween(connection.apiUrl, token, link.fullName, base, head);
      return shippedOf(link.htmlUrl, url, commits);
    } catch (error) {
      if (error instanceof GitHubRefusedError)
        await run(
          { userId: owner, username: null, isAdmin: false, correlationId: randomUUID() },
          { type: 'MarkBroken', userId: owner, status: error.upstreamStatus },
        );
      return undefined;
    }
  }

  /** A delivery's record, made through the projects service as the connection's owner. */
  async function record(
    owner: string,
    correlationId: string,
    projectId: string,
    meaning: Extract<DeliveryMeaning, { kind: 'release' | 'deployment' }>,
    shipped: Shipped | undefined,
  ): Promise<{ recorded: boolean; reason?: string }> {
    const caller: Caller = { userId: owner, username: null, isAdmin: false, correlationId };
    const answer =
      meaning.kind === 'release'
        ? await services.call('projects', {
            method: 'POST',
            path: `/projects/${projectId}/version`,
            body: { version: meaning.version, notes: meaning.notes, changes: meaning.changes, shipped },
            caller,
            headers: { [IDEMPOTENCY_HEADER]: `github-release-${meaning.releaseId}` },
          })
        : await services.call('projects', {
            method: 'POST',
            path: `/projects/${projectId}/deployment`,
            body: {
              environment: meaning.environment,
              version: meaning.version,
              url: meaning.url,
              notes: meaning.notes,
              status: meaning.status,
              shipped,
            },
            caller,
            headers: { [IDEMPOTENCY_HEADER]: `github-deployment-${meaning.deploymentId}-${meaning.status}` },
          });
    if (answer.status === 201) return { recorded: true };
    if (answer.status >= 500) throw new AppError(503, 'UNAVAILABLE', 'Not recorded now: GitHub may deliver it again');
    const message = (answer.body as { message?: string } | null)?.message ?? `answered ${answer.status}`;
    return { recorded: false, reason: `the project did not take it: ${message}` };
  }

  /**
   * Connects the caller as GitHub's `login` with `credential`, keeping the webhook secret of a
   * connection before (a new one the first time): the state and that secret.
   */
  async function connect(
    req: Request,
    res: Response,
    apiUrl: string,
    login: string,
    credential: Extract<GitHubCommand, { type: 'Connect' }>['credential'],
  ) {
    const userId = requireUserId(req);
    const before = await load(userId);
    const secret = (before.sealedSecret && box.open(userId, before.sealedSecret)) || randomBytes(32).toString('hex');
    const { state, position } = await run(callerOf(req), {
      type: 'Connect',
      userId,
      apiUrl,
      login,
      hookKey: randomBytes(24).toString('base64url'),
      credential,
      sealedSecret: box.seal(userId, secret),
    });
    const installationId = 'installationId' in credential ? credential.installationId : null;
    await githubTables.connected(pool, userId, state.hookKey!, installationId);
    if (position) reportPosition(res, 'integrations', position);
    return { state, secret };
  }

  const served = serveRoutes(
    githubRoutes,
    {
      'GET /github': async (req, res) => {
        res.json(connectionView(await load(requireUserId(req))));
      },

      'PUT /github': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { token } = parsed.body;
        const apiUrl = parsed.body.apiUrl ?? config.GITHUB_API_URL;
        const refused = github.refusalOf(apiUrl);
        if (refused) throw new ValidationError({ apiUrl: [refused] });
        const login = await github.login(apiUrl, token).catch((error: unknown) => {
          if (error instanceof GitHubRefusedError)
            throw new ValidationError({ token: ['GitHub does not accept this token'] });
          throw error;
        });
        const { state, secret } = await connect(req, res, apiUrl, login, { sealedToken: box.seal(userId, token) });
        res.json({ ...connectionView(state), webhookSecret: secret } satisfies GitHubConnectedView);
      },

      'POST /github/app/install': async (req, res) => {
        if (!app) throw appNotSetUp();
        const expires = context.now().getTime() + INSTALL_STATE_TTL_MS;
        res.json({ url: app.installUrl(installStates.seal(requireUserId(req), String(expires))) });
      },

      'PUT /github/app': async (req, res, parsed) => {
        if (!app) throw appNotSetUp();
        const userId = requireUserId(req);
        const { installationId, code, state: installState } = parsed.body;
        const expires = Number(installStates.open(userId, installState));
        if (!(expires > context.now().getTime()))
          throw new ValidationError({ state: ['This install was not begun here, or long ago: install the app again'] });
        // Only an installation GitHub says the installing user reaches: an id alone proves nothing.
        const apiUrl = config.GITHUB_API_URL;
        const userToken = await app.userToken(code);
        if (!userToken)
          throw new ValidationError({ code: ['GitHub did not authorize the install: install the app again'] });
        const [login, reachable] = await Promise.all([
          github.login(apiUrl, userToken),
          github.installationsOf(apiUrl, userToken),
        ]);
        if (!reachable.includes(installationId))
          throw new ValidationError({ installationId: ['This installation of the app is not yours on GitHub'] });
        // The installation answers for itself before it is kept (suspended: refused).
        await app.installationToken(installationId).catch((error: unknown) => {
          if (error instanceof GitHubRefusedError)
            throw new ValidationError({ installationId: ['GitHub does not let the app into this installation'] });
          throw error;
        });
        const { state } = await connect(req, res, apiUrl, login, { installationId });
        res.json(connectionView(state));
      },

      'DELETE /github': async (req, res) => {
        const userId = requireUserId(req);
        await run(callerOf(req), { type: 'Disconnect', userId });
        res.status(204).end();
      },

      'GET /github/repositories': async (req, res) => {
        const { state, connection, token } = await connectionOf(req);
        const kind = connection.installationId === null ? 'user' : 'installation';
        const repositories = await withToken(req, () => github.repositories(connection.apiUrl, token, kind));
        const byRepository = new Map([...state.links.values()].map((l) => [l.repositoryId, l.projectId]));
        res.json(
          repositories.map((r) => ({
            id: r.id,
            fullName: r.fullName,
            description: r.description,
            private: r.private,
            htmlUrl: r.htmlUrl,
            projectId: byRepository.get(r.id) ?? null,
          })),
        );
      },

      'POST /github/import': async (req, res, parsed) => {
        const { userId, state, connection, token } = await connectionOf(req);
        const caller = callerOf(req);
        const { workspaceId } = parsed.body;
        const names = [...new Set(parsed.body.repositories)];
        const repositories = await withToken(req, () =>
          Promise.all(names.map((name) => github.repository(connection.apiUrl, token, name))),
        ).catch((error: unknown) => {
          if (error instanceof AppError && error.status === 502)
            throw new ValidationError({ repositories: ['One of these repositories is not reachable with this token'] });
          throw error;
        });
        const imported = new Set([...state.links.values()].map((l) => l.repositoryId));
        const fresh = repositories.filter((r) => !imported.has(r.id));
        const reached: string[] = [];
        const joined: Awaited<ReturnType<typeof join>>[] = [];
        const made: GitHubImportView['projects'] = [];
        for (const repository of fresh) {
          const body: Partial<CreateProjectInput> = {
            name: repository.name.slice(0, 200),
            description: repository.description?.slice(0, 5000) ?? null,
            status: 'development',
            isPublic: !repository.private,
            metadata: {
              socialLinks: {
                github: repository.htmlUrl,
                ...(repository.homepage && /^https?:\/\//.test(repository.homepage)
                  ? { website: repository.homepage }
                  : {}),
              },
            },
            ...(workspaceId ? { workspaceId } : {}),
          };
          const answer = await services.call<Project>('projects', {
            method: 'POST',
            path: '/projects',
            body,
            caller,
            // A retry of this import is the same project.
            headers: { [IDEMPOTENCY_HEADER]: `github-repository-${repository.id}` },
          });
          if (answer.status !== 201) {
            const message = (answer.body as { message?: string } | null)?.message ?? `answered ${answer.status}`;
            if (answer.status === 403 || answer.status === 404)
              throw new AppError(answer.status, (answer.body as { code?: string }).code ?? 'FORBIDDEN', message);
            throw new AppError(
              502,
              'PROJECTS_UNAVAILABLE',
              `The project for ${repository.fullName} was not made: ${message}`,
            );
          }
          const position = answer.headers[POSITION_HEADER];
          if (typeof position === 'string') reached.push(position);
          const done = await withToken(req, () => join(connection, token, state, answer.body.id, repository));
          joined.push(done);
          made.push({
            id: answer.body.id,
            name: answer.body.name,
            repository: repository.fullName,
            webhook: done.link.hook !== 'manual',
          });
        }
        if (joined.length > 0) await linked(req, userId, joined);
        reportPositions(res, parsePositions(reached.join(',')));
        res.json({
          projects: made,
          alreadyImported: repositories.length - fresh.length,
          message: `Imported ${made.length} of ${names.length} repositories`,
        } satisfies GitHubImportView);
      },

      'GET /projects/:id/github': async (req, res, parsed) => {
        const { id } = await parsed.project(String(req.params.id));
        const row = await githubTables.link(pool, id);
        res.json(row ? repositoryView(row) : null);
      },

      'PUT /projects/:id/github': async (req, res, parsed) => {
        const { id: projectId } = await parsed.project(String(req.params.id));
        const { userId, state, connection, token } = await connectionOf(req);
        const existing = await githubTables.link(pool, projectId);
        const repository = await withToken(req, () =>
          github.repository(connection.apiUrl, token, parsed.body.repository),
        ).catch((error: unknown) => {
          if (error instanceof AppError && error.status === 502)
            throw new ValidationError({ repository: ['This repository is not reachable with your GitHub token'] });
          throw error;
        });
        if (existing && existing.repositoryId !== repository.id)
          throw new AppError(409, 'GITHUB_ALREADY_LINKED', `This project is joined to ${existing.fullName} already`);
        if (!existing)
          await linked(req, userId, [
            await withToken(req, () => join(connection, token, state, projectId, repository)),
          ]);
        res.json(repositoryView((await githubTables.link(pool, projectId))!));
      },

      'DELETE /projects/:id/github': async (req, res, parsed) => {
        const { id: projectId } = await parsed.project(String(req.params.id));
        const row = await githubTables.link(pool, projectId);
        // Whoever joined them holds the link: a member parts them for the team.
        if (row) await run(callerOf(req), { type: 'Unlink', userId: row.userId, projectId });
        await githubTables.unlinked(pool, projectId);
        res.status(204).end();
      },

      'POST /hooks/github/:hookKey': async (req, res) => {
        const owner = await githubTables.userOfHook(pool, String(req.params.hookKey));
        const state = owner ? await load(owner) : null;
        if (!owner || !state?.connection || !state.sealedSecret)
          throw new NotFoundError('No GitHub connection has this webhook address', 'GITHUB_HOOK_NOT_FOUND');
        const body = await signed(req, box.open(owner, state.sealedSecret));
        const outcome = await deliver(req, body, owner, state);
        res.status(202).json(outcome);
      },

      'POST /hooks/github-app': async (req, res) => {
        if (!app || !config.GITHUB_APP_WEBHOOK_SECRET) throw appNotSetUp();
        const body = await signed(req, config.GITHUB_APP_WEBHOOK_SECRET);
        const installationId = Number((body as { installation?: { id?: unknown } }).installation?.id);
        // Every connection made through this installation, as it stands (one parted from it hears nothing).
        const owners = Number.isSafeInteger(installationId)
          ? await githubTables.usersOfInstallation(pool, installationId)
          : [];
        const connections = (
          await Promise.all(owners.map(async (owner) => ({ owner, state: await load(owner) })))
        ).filter(({ state }) => state.connection?.installationId === installationId);
        if (connections.length === 0) {
          res.status(202).json({ recorded: false, reason: 'no connection is made through this installation' });
          return;
        }
        const event = String(req.headers['x-github-event'] ?? '');
        const action = (body as { action?: unknown }).action;
        if (event === 'installation' && (action === 'deleted' || action === 'suspend' || action === 'unsuspend')) {
          // Uninstalled or suspended: its connections ask to be made again (their links wait). Unsuspended:
          // they work again, as they were. As GitHub has the installation now, not as the delivery says it
          // became, since GitHub does not order its deliveries (an unsuspend may come before its suspend);
          // the delivery's word only when GitHub cannot be asked.
          const said = action === 'unsuspend' ? 'active' : action === 'suspend' ? 'suspended' : 'deleted';
          const now = (await app.installationState(installationId).catch(() => null))?.state ?? said;
          for (const { owner } of connections)
            await run(
              { userId: owner, username: null, isAdmin: false, correlationId: randomUUID() },
              now === 'active'
                ? { type: 'Restore', userId: owner }
                : { type: 'MarkBroken', userId: owner, status: now === 'deleted' ? 404 : 403 },
            );
          res.status(202).json({ recorded: true });
          return;
        }
        if (event === 'installation_repositories' && (action === 'added' || action === 'removed')) {
          // Repositories the account gave the app, or took from it: their projects' cards say so. Each as
          // the installation reaches it now (a removal may come after the addition that undid it), the
          // delivery's word where GitHub cannot be asked.
          const named = (key: string, reachable: boolean) => {
            const list = (body as Record<string, unknown>)[key];
            return (Array.isArray(list) ? list : []).flatMap((entry) => {
              const { id, full_name: fullName } = (entry ?? {}) as { id?: unknown; full_name?: unknown };
              return Number.isSafeInteger(id) && typeof fullName === 'string' && /^[^/]+\/[^/]+$/.test(fullName)
                ? [{ id: id as number, fullName, reachable }]
                : [];
            });
          };
          // Only those joined to a project: an account's change can name hundreds.
          const owners = connections.map(({ owner }) => owner);
          const mentioned = [...named('repositories_added', true), ...named('repositories_removed', false)];
          const linked = new Set(
            await githubTables.linkedAmong(
              pool,
              owners,
              mentioned.map(({ id }) => id),
            ),
          );
          const repositories = mentioned.filter(({ id }) => linked.has(id));
          const installation =
            repositories.length > 0 ? await app.installationState(installationId).catch(() => null) : null;
          const checked: { id: number; reachable: boolean }[] = [];
          for (const { id, fullName, reachable: said } of repositories)
            checked.push({
              id,
              reachable:
                installation?.state === 'active'
                  ? await github.reaches(config.GITHUB_API_URL, installation.token, fullName).catch(() => said)
                  : said,
            });
          const ids = (wanted: boolean) => checked.filter((r) => r.reachable === wanted).map(({ id }) => id);
          await githubTables.reach(pool, owners, ids(true), null);
          await githubTables.reach(pool, owners, ids(false), context.now().toISOString());
          res.status(202).json({ recorded: true });
          return;
        }
        const outcomes = [];
        for (const { owner, state } of connections) outcomes.push(await deliver(req, body, owner, state));
        res.status(202).json(outcomes.find((outcome) => outcome.recorded) ?? outcomes[0]!);
      },
    },
    { reach },
  );

  /** The delivery's JSON, once its `X-Hub-Signature-256` is the HMAC of its raw body with `secret`. */
  async function signed(req: Request, secret: string | null): Promise<unknown> {
    const signature = req.headers['x-hub-signature-256'];
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    if (!secret || typeof signature !== 'string' || !(await verify(secret, raw, signature).catch(() => false)))
      throw new AppError(
        401,
        'GITHUB_SIGNATURE',
        'The delivery’s X-Hub-Signature-256 does not match this webhook’s secret',
      );
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new ValidationError({ body: ['The delivery is not JSON'] }, 'The delivery is not JSON');
    }
    // GitHub's deliveries are objects: anything else (`null`, a number) is nothing to read from.
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ValidationError({ body: ['The delivery is not a JSON object'] }, 'The delivery is not a JSON object');
    return body;
  }

  /** A signed delivery, recorded for the connection of `owner`'s it reached. */
  async function deliver(
    req: Request,
    body: unknown,
    owner: string,
    state: GitHubAccount,
  ): Promise<{ recorded: boolean; reason?: string }> {
    const event = String(req.headers['x-github-event'] ?? '');
    const meaning = meaningOf(event, body, context.now());
    const answer = (recorded: boolean, reason?: string) => (reason === undefined ? { recorded } : { recorded, reason });
    if (meaning.kind === 'ignored') return answer(false, meaning.reason);
    if (meaning.kind === 'ping') return answer(false, 'ping');
    const link = await githubTables.linkOf(pool, owner, meaning.repositoryId);
    if (!link) return answer(false, 'the repository is joined to no project');
    // Delivered, so in reach again (the delivery that said so may come later, or not at all).
    if (!link.reachable) await githubTables.reach(pool, [owner], [meaning.repositoryId], null);
    if (meaning.kind === 'push') {
      await githubTables.pushed(pool, link.projectId, meaning.commit);
      return answer(true);
    }
    const correlationId = String(req.headers['x-github-delivery'] ?? randomUUID()).slice(0, 100);
    if (meaning.kind === 'scheduled-run' || meaning.kind === 'failed-run') {
      const asMonitors = async (path: string, body: unknown) => {
        const reported = await services.call('monitors', {
          method: 'POST',
          path: `/projects/${link.projectId}/${path}`,
          body,
          caller: { userId: owner, username: null, isAdmin: false, correlationId },
        });
        if (reported.status >= 500)
          throw new AppError(503, 'UNAVAILABLE', 'Not recorded now: GitHub may deliver it again');
        return reported.status === 200;
      };
      // A scheduled run as its cron ping would: monitors keeps the project's runs, and a good one is its
      // backup. A failed run, scheduled or not, is alerted through the project's channels, once.
      const ran =
        meaning.kind === 'scheduled-run'
          ? await asMonitors('runs', { outcome: meaning.outcome, label: meaning.workflow })
          : true;
      const failure = meaning.kind === 'failed-run' ? meaning : meaning.failure;
      const alerted = failure
        ? await asMonitors('workflow-failures', {
            workflow: meaning.workflow,
            runId: meaning.runId,
            runUrl: failure.runUrl,
            branch: failure.branch,
            trigger: failure.trigger,
          })
        : true;
      return ran && alerted ? answer(true) : answer(false, 'the project did not take it');
    }
    const shipped = await shippedFor(owner, state, link, meaning);
    const outcome = await record(owner, correlationId, link.projectId, meaning, shipped);
    if (outcome.recorded && meaning.kind === 'release')
      await githubTables.released(pool, link.projectId, { tag: meaning.version, url: meaning.url, at: meaning.at });
    if (outcome.recorded && meaning.kind === 'deployment' && meaning.status === 'success')
      await githubTables.deployedCommit(pool, link.projectId, meaning.environment, meaning.sha);
    return answer(outcome.recorded, outcome.reason);
  }

  return { ...served, close: () => outbound.close() };
}

/** How long an install begun here may take to come back from GitHub. */
const INSTALL_STATE_TTL_MS = 30 * 60_000;
