import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '@shiplog/errors';
import { isId, newId } from '@shiplog/events';
import {
  type ApiTokenView,
  accountInfoSchema,
  adminUsersQuerySchema,
  apiTokenSchema,
  changePasswordSchema,
  loginSchema,
  notificationSettingsSchema,
  profileSchema,
  registerSchema,
  verifyPasswordSchema,
} from '@shiplog/schemas';
import {
  callerOf,
  handleCommand,
  inAppendTransaction,
  loadAggregate,
  parseInput,
  reportPosition,
  requireAdmin,
  requireUserId,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { Request, Response, Router } from 'express';
import type { IdentityEnv } from '../env.ts';
import { adminUserCounts, adminUsersPage } from '../read-models/admin-users/index.ts';
import { hashTokenText, newTokenText, parseTokenText, tokenTextMatches } from './api-token.ts';
import { type UserCommand, userDecider, usernameDecider } from './decide.ts';
import type { emailVerificationApi } from './email-verification.ts';
import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import { type ApiToken, sameAddress, type User, usernameStream, userStream } from './user.ts';

export interface PublicUser {
  id: string;
  username: string;
  email: string | null;
  isAdmin: boolean;
}

/** How long after the request every failed sign-in is answered (longer than the slowest lookup and check). */
const FAILED_LOGIN_ANSWER_MS = 250;
/** How old a claim with no account must be before its name is free again (see releaseOrphanedClaim). */
export const ORPHANED_CLAIM_MS = 60_000;

export function identityApi(
  context: ServiceContext<IdentityEnv>,
  emails: Pick<ReturnType<typeof emailVerificationApi>, 'mailLink'>,
) {
  const { store, config } = context;
  const isAdminName = (username: string) => username.toLowerCase() === config.ADMIN_USERNAME.toLowerCase();
  const toPublic = (user: Extract<User, { status: 'registered' }>): PublicUser => ({
    id: user.id,
    username: user.username,
    email: user.email,
    isAdmin: isAdminName(user.username),
  });
  const commandContext = (req: Request) => {
    const caller = callerOf(req);
    return { userId: caller.userId, correlationId: caller.correlationId };
  };

  async function loadUser(userId: string) {
    const { state } = await loadAggregate(store, userStream(userId), userDecider);
    return state.status === 'registered' ? state : null;
  }

  /** The caller's account, or 404 (it was deleted, or the session outlived it). */
  async function currentUser(req: Request) {
    const user = await loadUser(requireUserId(req));
    if (!user) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
    return user;
  }

  /**
   * A command on the caller's own account: its new state, with the position reported for
   * read-your-writes when `res` is given. The token commands pass none: their events stay in this
   * service (not published), so no consumer would ever reach that position and every later read would
   * wait out its timeout; and tokens are read from the account's stream, which is never behind.
   */
  async function changeCurrentUser(req: Request, res: Response | null, command: UserCommand) {
    const result = await handleCommand(
      store,
      userStream(requireUserId(req)),
      userDecider,
      command,
      commandContext(req),
    );
    if (res && result.position) reportPosition(res, 'identity', result.position);
    if (result.state.status !== 'registered') throw new NotFoundError('User not found', 'USER_NOT_FOUND');
    return result.state;
  }

  async function findByUsername(username: string) {
    const { state } = await loadAggregate(store, usernameStream(username), usernameDecider);
    return state.status === 'claimed' ? loadUser(state.userId) : null;
  }

  /**
   * Claim the name, then create the account. EventStoreDB has no multi-stream transaction, so the
   * claim comes first (a conflict there is the duplicate-username 409) and is released if the account
   * cannot be written.
   */
  async function register(
    input: { username: string; email: string | null; password: string },
    ctx: { userId: string | null; correlationId: string },
  ) {
    const userId = newId();
    const passwordHash = await hashPassword(input.password);
    const claim = () =>
      handleCommand(
        store,
        usernameStream(input.username),
        usernameDecider,
        { type: 'ClaimUsername', username: input.username, userId },
        ctx,
      );
    try {
      await claim();
    } catch (error) {
      if (!(error instanceof ConflictError) || !(await releaseOrphanedClaim(input.username, ctx))) throw error;
      await claim();
    }
    try {
      const result = await handleCommand(
        store,
        userStream(userId),
        userDecider,
        { type: 'RegisterUser', userId, username: input.username, email: input.email, passwordHash },
        { ...ctx, userId },
      );
      return result;
    } catch (error) {
      await handleCommand(
        store,
        usernameStream(input.username),
        usernameDecider,
        { type: 'ReleaseUsername', userId },
        ctx,
      ).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A claim with no account behind it, a minute old: a registration that stopped between its two
   * appends (its process was killed) or an account whose deletion stopped before removing the claim.
   * Its name is released, so that it can be registered again; true if it was. A claim younger than that
   * may be a registration still under way.
   */
  async function releaseOrphanedClaim(username: string, ctx: { userId: string | null; correlationId: string }) {
    const stream = usernameStream(username);
    const { state } = await loadAggregate(store, stream, usernameDecider);
    const last = (await store.readStream(stream)).at(-1);
    if (state.status !== 'claimed' || !last || Date.now() - last.occurredAt.getTime() < ORPHANED_CLAIM_MS) return false;
    if (await loadUser(state.userId)) return false;
    await handleCommand(store, stream, usernameDecider, { type: 'ReleaseUsername', userId: state.userId }, ctx);
    context.logger.warn({ userId: state.userId }, 'released a username claimed by no account');
    return true;
  }

  /**
   * The account and everything it owns goes. In one transaction the user's key is destroyed (every
   * event holding their personal data, here and on the bus, becomes unreadable) and `UserDeleted` is
   * appended; each service reacts by deleting what it keeps of the user. The username claim's stream
   * is then removed, since its name is the username; a failure there leaves only a shredded claim.
   */
  async function deleteUser(user: Extract<User, { status: 'registered' }>, deletedBy: string, req: Request) {
    if (isAdminName(user.username)) {
      throw new ForbiddenError('The administrator account cannot be deleted', 'ADMIN_ACCOUNT');
    }
    const result = await inAppendTransaction(context, async (tx) => {
      // Decided from the account as it stands (read in this transaction), then its key is destroyed
      // in the same commit. UserDeleted itself holds ids only, so it is not sealed.
      const deleted = await handleCommand(
        store,
        userStream(user.id),
        userDecider,
        { type: 'DeleteUser', deletedBy },
        { ...commandContext(req), transaction: tx },
      );
      await context.vault.forget(user.id, tx);
      return deleted;
    });
    await store.deleteStream(usernameStream(user.username)).catch((error: unknown) => {
      context.logger.warn({ err: error, userId: user.id }, 'username claim stream not removed; it stays shredded');
    });
    return result.appended?.position ?? null;
  }

  /**
   * The account named by ADMIN_USERNAME is made with ADMIN_PASSWORD at the first start that has one.
   * Later starts leave it as it is: a password changed in the app stays changed.
   */
  async function ensureAdmin(): Promise<void> {
    const password = config.ADMIN_PASSWORD;
    if (!password) return;
    const ctx = { userId: null, correlationId: newId() };
    if (await findByUsername(config.ADMIN_USERNAME)) return;
    try {
      await register({ username: config.ADMIN_USERNAME, email: null, password }, ctx);
      context.logger.info({ username: config.ADMIN_USERNAME }, 'admin account created');
    } catch (error) {
      // Another replica created it at the same moment.
      if (!(error instanceof ConflictError)) throw error;
    }
  }

  function routes(router: Router) {
    router.post('/register', async (req, res) => {
      const input = parseInput(registerSchema, req.body);
      if (isCommonPassword(input.password)) throw new ValidationError({ password: [COMMON_PASSWORD_MESSAGE] });
      // Nobody registers the admin's name, whether or not that account exists yet.
      if (isAdminName(input.username)) throw new ConflictError('Username already exists', 'USERNAME_TAKEN');
      const result = await register(
        { username: input.username, email: input.email || null, password: input.password },
        commandContext(req),
      );
      if (result.state.status !== 'registered') throw new Error('registration produced no account');
      if (result.position) reportPosition(res, 'identity', result.position);
      // The link's event stays in this service: its position is not one any read waits for.
      if (result.state.email) await emails.mailLink(result.state.id, commandContext(req), false);
      res.status(201).json(toPublic(result.state));
    });

    router.post('/login', async (req, res) => {
      const input = parseInput(loginSchema, req.body);
      const started = Date.now();
      const user = await findByUsername(input.username);
      const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !valid) {
        // A known name costs a little more to look up than an unknown one: every failure answers at the
        // same moment after the request, so the time tells nothing about which it was (ASVS 2.2.1).
        await sleep(Math.max(0, FAILED_LOGIN_ANSWER_MS - (Date.now() - started)));
        throw new UnauthorizedError('Invalid username or password', 'INVALID_CREDENTIALS');
      }
      const result = await handleCommand(
        store,
        userStream(user.id),
        userDecider,
        { type: 'RecordLogin' },
        { ...commandContext(req), userId: user.id },
      );
      if (result.position) reportPosition(res, 'identity', result.position);
      res.json(toPublic(user));
    });

    // Profile (spec/account.md): the stored one, or a first one made of the username.
    // A public profile, for the gateway's /u/{username} page: only what its owner shows on it,
    // and only while the profile is public. A private one and a missing one answer the same 404.
    router.get('/public/profiles/:username', async (req, res) => {
      const username = req.params.username ?? '';
      const user = username.length <= 50 ? await findByUsername(username) : null;
      const profile = user ? profileView(user) : null;
      if (profile?.projectVisibility !== 'public') throw new NotFoundError('Profile not found', 'PROFILE_NOT_FOUND');
      const { userId, displayName, bio, github, twitter, linkedin, website } = profile;
      res.json({ userId, username: profile.username, displayName, bio, github, twitter, linkedin, website });
    });

    router.get('/profile', async (req, res) => {
      res.json(profileView(await currentUser(req)));
    });

    router.post('/profile', async (req, res) => {
      const profile = parseInput(profileSchema, req.body);
      res.json(profileView(await changeCurrentUser(req, res, { type: 'UpdateProfile', profile })));
    });

    router.post('/user/account-info', async (req, res) => {
      const { email, phoneNumber } = parseInput(accountInfoSchema, req.body);
      const before = await currentUser(req);
      const user = await changeCurrentUser(req, res, { type: 'UpdateAccountInfo', email, phoneNumber });
      // A new address gets a link to prove it.
      if (user.email && !user.emailVerified && !sameAddress(before.email, user.email))
        await emails.mailLink(user.id, commandContext(req), false);
      res.json({ email: user.email, phoneNumber: user.phoneNumber, emailVerified: user.emailVerified });
    });

    router.post('/user/change-password', async (req, res) => {
      const { currentPassword, newPassword } = parseInput(changePasswordSchema, req.body);
      const user = await currentUser(req);
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        throw new ValidationError({ currentPassword: ['Current password is incorrect'] });
      }
      if (isCommonPassword(newPassword)) throw new ValidationError({ newPassword: [COMMON_PASSWORD_MESSAGE] });
      await changeCurrentUser(req, res, { type: 'SetPassword', passwordHash: await hashPassword(newPassword) });
      // Its tokens are revoked with it (decide.ts): their last uses go too.
      await context.pool.query('DELETE FROM identity.api_token_usage WHERE user_id = $1', [user.id]);
      res.json({ message: 'Password changed' });
    });

    // The signed-in user's password, asked again before a sensitive change (the gateway's /api/reauth).
    router.post('/user/verify-password', async (req, res) => {
      const { password } = parseInput(verifyPasswordSchema, req.body);
      const user = await currentUser(req);
      if (!(await verifyPassword(user.passwordHash, password)))
        throw new ValidationError({ password: ['Password is incorrect'] });
      res.json({ message: 'Password confirmed' });
    });

    router.get('/notifications/settings', async (req, res) => {
      res.json((await currentUser(req)).notificationSettings);
    });

    router.post('/notifications/settings', async (req, res) => {
      const settings = parseInput(notificationSettingsSchema, req.body);
      res.json(
        (await changeCurrentUser(req, res, { type: 'ChangeNotificationSettings', settings })).notificationSettings,
      );
    });

    router.delete('/user', async (req, res) => {
      const user = await currentUser(req);
      const position = await deleteUser(user, user.id, req);
      if (position) reportPosition(res, 'identity', position);
      res.status(204).end();
    });

    // The admin dashboard's User Management: searched and paged here, the total in X-Total-Count.
    router.get('/admin/users', async (req, res) => {
      requireAdmin(req);
      const query = parseInput(adminUsersQuerySchema, req.query);
      const { users, total } = await adminUsersPage(context.pool, query);
      res.setHeader('X-Total-Count', String(total));
      res.json(users);
    });

    router.get('/admin/users/summary', async (req, res) => {
      requireAdmin(req);
      res.json(await adminUserCounts(context.pool));
    });

    // The same cascade as a user deleting themselves; the gateway then ends every session of the account.
    router.delete('/admin/users/:userId', async (req, res) => {
      const admin = requireAdmin(req);
      const userId = req.params.userId;
      const user = isId(userId) ? await loadUser(userId) : null;
      if (!user) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
      const position = await deleteUser(user, admin.userId, req);
      if (position) reportPosition(res, 'identity', position);
      res.status(204).end();
    });

    router.get('/users/me', async (req, res) => {
      res.json(toPublic(await currentUser(req)));
    });

    // Personal API tokens: the gateway lets a token act as its user on the project routes.
    router.get('/tokens', async (req, res) => {
      const user = await currentUser(req);
      res.json(await tokenViews(user));
    });

    router.post('/tokens', async (req, res) => {
      const { name, expiresInDays } = parseInput(apiTokenSchema, req.body);
      const userId = requireUserId(req);
      const tokenId = newId();
      const text = newTokenText(userId, tokenId);
      const user = await changeCurrentUser(req, null, {
        type: 'CreateApiToken',
        tokenId,
        name,
        tokenHash: hashTokenText(text),
        expiresInDays,
      });
      const created = user.apiTokens.find((token) => token.id === tokenId);
      if (!created) throw new Error('the new token is not on the account');
      // The only time the token's text is given out.
      res.status(201).json({ ...tokenView(created, null), token: text });
    });

    router.delete('/tokens/:tokenId', async (req, res) => {
      const tokenId = req.params.tokenId;
      if (!isId(tokenId)) throw new NotFoundError('API token not found', 'API_TOKEN_NOT_FOUND');
      await changeCurrentUser(req, null, { type: 'RevokeApiToken', tokenId });
      await context.pool.query('DELETE FROM identity.api_token_usage WHERE token_id = $1', [tokenId]);
      res.status(204).end();
    });

    // The gateway's question for a request that carries a token: whose is it? Read from the account's
    // stream, so a revocation or the account's deletion counts from the next request.
    router.post('/tokens/verify', async (req, res) => {
      const text = typeof req.body?.token === 'string' ? req.body.token : '';
      const named = parseTokenText(text);
      const user = named ? await loadUser(named.userId) : null;
      const token = user?.apiTokens.find((t) => t.id === named?.tokenId);
      if (!user || !token || !tokenTextMatches(text, token.tokenHash))
        throw new UnauthorizedError('Invalid or revoked API token', 'INVALID_API_TOKEN');
      if (token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now())
        throw new UnauthorizedError(
          `This API token expired on ${token.expiresAt.slice(0, 10)}: create a new one`,
          'INVALID_API_TOKEN',
        );
      await context.pool.query(
        `INSERT INTO identity.api_token_usage (token_id, user_id, last_used_at) VALUES ($1, $2, now())
         ON CONFLICT (token_id) DO UPDATE SET last_used_at = now()
         WHERE api_token_usage.last_used_at < now() - interval '1 minute'`,
        [token.id, user.id],
      );
      res.json({ tokenId: token.id, user: toPublic(user) });
    });
  }

  async function tokenViews(user: Extract<User, { status: 'registered' }>): Promise<ApiTokenView[]> {
    const { rows } = await context.pool.query<{ token_id: string; last_used_at: Date }>(
      'SELECT token_id, last_used_at FROM identity.api_token_usage WHERE user_id = $1',
      [user.id],
    );
    const lastUsed = new Map(rows.map((row) => [row.token_id, row.last_used_at.toISOString()]));
    return user.apiTokens.map((token) => tokenView(token, lastUsed.get(token.id) ?? null)).reverse();
  }

  return { routes, ensureAdmin };
}

function tokenView(token: ApiToken, lastUsedAt: string | null): ApiTokenView {
  return { id: token.id, name: token.name, createdAt: token.createdAt, expiresAt: token.expiresAt, lastUsedAt };
}

function profileView(user: Extract<User, { status: 'registered' }>) {
  const profile = user.profile ?? {
    displayName: user.username,
    bio: null,
    phoneNumber: user.phoneNumber,
    replitUsername: null,
    avatar: null,
    github: null,
    twitter: null,
    linkedin: null,
    website: null,
    projectVisibility: 'public' as const,
  };
  return {
    userId: user.id,
    username: user.username,
    email: user.email,
    ...profile,
    isReplitLinked: false,
    emailVerified: user.emailVerified,
  };
}
