import { ConflictError, ForbiddenError, NotFoundError } from '@shiplog/errors';
import { newId } from '@shiplog/events';
import {
  callerOf,
  handleCommand,
  inAppendTransaction,
  loadAggregate,
  reportPosition,
  requireUserId,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { IdentityEnv } from '../env.ts';
import { membershipsOf } from '../read-models/workspaces/index.ts';
import { usernameDecider } from '../username-claim/decide.ts';
import { usernameStream } from '../username-claim/username-claim.ts';
import { workspaceDecider } from '../workspace/decide.ts';
import { workspaceStream } from '../workspace/workspace.ts';
import { type UserCommand, userDecider } from './decide.ts';
import { hashPassword } from './passwords.ts';
import { type User, userStream } from './user.ts';

export type RegisteredUser = Extract<User, { status: 'registered' }>;

/** The account as the gateway knows its user. */
export interface PublicUser {
  id: string;
  username: string;
  email: string | null;
  isAdmin: boolean;
}

/** How old a claim with no account must be before its name is free again (see releaseOrphanedClaim). */
export const ORPHANED_CLAIM_MS = 60_000;

/**
 * The account's life across its two streams (the name's claim and the account): loading it, the
 * caller's own commands, registration and deletion (each a saga over the two), and the administrator's
 * account at start. The routes (api.ts, admin-api.ts, api-token/api.ts) are built on these.
 */
export function accounts(context: ServiceContext<IdentityEnv>) {
  const { store, config } = context;
  const isAdminName = (username: string) => username.toLowerCase() === config.ADMIN_USERNAME.toLowerCase();
  const toPublic = (user: RegisteredUser): PublicUser => ({
    id: user.id,
    username: user.username,
    email: user.email,
    isAdmin: isAdminName(user.username),
  });
  const commandContext = (req: Request) => {
    const caller = callerOf(req);
    // The address stays on the events of a team workspace only (a token limited to one): `metadataFor`.
    return { userId: caller.userId, address: caller.address, correlationId: caller.correlationId };
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
  /** A command on the caller's account; `idempotencyKey` (createdId's) makes a repeat of it answer the first. */
  async function changeCurrentUser(req: Request, res: Response | null, command: UserCommand, idempotencyKey?: string) {
    const result = await handleCommand(store, userStream(requireUserId(req)), userDecider, command, {
      ...commandContext(req),
      idempotencyKey,
      now: context.now(),
    });
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
        { ...ctx, now: context.now() },
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
        { ...ctx, userId, now: context.now() },
      );
      return result;
    } catch (error) {
      await handleCommand(
        store,
        usernameStream(input.username),
        usernameDecider,
        { type: 'ReleaseUsername', userId },
        { ...ctx, now: context.now() },
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
    if (state.status !== 'claimed' || !last || context.now().getTime() - last.occurredAt.getTime() < ORPHANED_CLAIM_MS)
      return false;
    if (await loadUser(state.userId)) return false;
    await handleCommand(
      store,
      stream,
      usernameDecider,
      { type: 'ReleaseUsername', userId: state.userId },
      { ...ctx, now: context.now() },
    );
    context.logger.warn({ userId: state.userId }, 'released a username claimed by no account');
    return true;
  }

  /**
   * The account and everything it owns goes. In one transaction the user's key is destroyed (every
   * event holding their personal data, here and on the bus, becomes unreadable) and `UserDeleted` is
   * appended; each service reacts by deleting what it keeps of the user. The username claim's stream
   * is then removed, since its name is the username; a failure there leaves only a shredded claim.
   * The account leaves its workspaces: one it alone owns passes to its longest-standing admin, or goes
   * when nobody else is in it; one it cannot pass on refuses the deletion first, saying what to do.
   */
  async function deleteUser(user: RegisteredUser, deletedBy: string, req: Request) {
    if (isAdminName(user.username)) {
      throw new ForbiddenError('The administrator account cannot be deleted', 'ADMIN_ACCOUNT');
    }
    const workspaces = (await membershipsOf(context.pool, user.id)).map((m) => m.workspaceId);
    const leave = { type: 'RemoveDeletedAccount', memberId: user.id } as const;
    for (const workspaceId of workspaces) {
      const { state } = await loadAggregate(store, workspaceStream(workspaceId), workspaceDecider);
      workspaceDecider.decide(leave, state, context.now());
    }
    const result = await inAppendTransaction(context, async (tx) => {
      // Decided from the account as it stands (read in this transaction), then its key is destroyed
      // in the same commit. UserDeleted itself holds ids only, so it is not sealed.
      const deleted = await handleCommand(
        store,
        userStream(user.id),
        userDecider,
        { type: 'DeleteUser', deletedBy },
        { ...commandContext(req), transaction: tx, now: context.now() },
      );
      await context.vault.forget(user.id, tx);
      return deleted;
    });
    await store.deleteStream(usernameStream(user.username)).catch((error: unknown) => {
      context.logger.warn({ err: error, userId: user.id }, 'username claim stream not removed; it stays shredded');
    });
    for (const workspaceId of workspaces) {
      await handleCommand(store, workspaceStream(workspaceId), workspaceDecider, leave, {
        ...commandContext(req),
        now: context.now(),
        retries: 3,
      }).catch((error: unknown) => {
        context.logger.error(
          { err: error, userId: user.id, workspaceId },
          'a deleted account could not leave its workspace',
        );
      });
    }
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
    if (await findByUsername(config.ADMIN_USERNAME)) {
      // Said, so an operator who changed ADMIN_PASSWORD to reset it knows it did not.
      context.logger.info(
        { username: config.ADMIN_USERNAME },
        'ADMIN_PASSWORD is set but the admin account exists: its password is left as it is (change it in the app)',
      );
      return;
    }
    try {
      await register({ username: config.ADMIN_USERNAME, email: null, password }, ctx);
      context.logger.info({ username: config.ADMIN_USERNAME }, 'admin account created');
    } catch (error) {
      // Another replica created it at the same moment.
      if (!(error instanceof ConflictError)) throw error;
    }
  }

  return {
    isAdminName,
    toPublic,
    commandContext,
    loadUser,
    currentUser,
    changeCurrentUser,
    findByUsername,
    register,
    deleteUser,
    ensureAdmin,
  };
}

export type Accounts = ReturnType<typeof accounts>;
