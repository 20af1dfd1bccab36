import { createHash, randomBytes } from 'node:crypto';
import { currentSubscription, teamPlans } from '@shiplog/contracts';
import { ForbiddenError, NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import {
  INVITE_DAYS,
  inPaidTier,
  roleAtLeast,
  roleLabels,
  SLUG_REDIRECT_DAYS,
  WORKSPACE_NEEDS_PLAN_MESSAGE,
  type WorkspaceRole,
  type WorkspaceView,
} from '@shiplog/schemas';
import {
  callerOf,
  catchUp,
  createdId,
  type Email,
  escapeHtml,
  handleCommand,
  loadAggregate,
  type Mailer,
  notCaughtUp,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { IdentityEnv } from '../env.ts';
import {
  inviteWorkspace,
  membersOf,
  receivedInvites,
  sentInvites,
  workspaceBySlug,
  workspaceOf,
  workspacesOf,
} from '../read-models/workspaces/index.ts';
import type { Accounts } from '../user/accounts.ts';
import { hashTokenText, idBytes, idOf, sameDigest } from '../user/api-token.ts';
import { type SlugCommand, slugDecider } from '../workspace-slug/decide.ts';
import { slugStream } from '../workspace-slug/workspace-slug.ts';
import {
  type Invited,
  inviteNotFound,
  isPending,
  type WorkspaceCommand,
  workspaceDecider,
  workspaceNotFound,
} from './decide.ts';
import { workspaceRoutes } from './routes.ts';
import { type ActiveWorkspace, workspaceStream } from './workspace.ts';

const DAY_MS = 86_400_000;

/** The SHA-256 of an address as it is matched: lower case, trimmed. */
export const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/** What the admins' list shows of an address invited: its first letter and its domain. */
export const emailHint = (email: string) => {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  return `${local.slice(0, 1)}…@${domain}`;
};

/**
 * An emailed invite's secret: the base64url of its workspace's id and 32 random bytes (so the link
 * names its workspace without a lookup); only its SHA-256 is kept (WorkspaceInviteLinkMade). It rides
 * in the link's `#` part, out of every server log, and the page posts it back.
 */
const newInviteSecret = (workspaceId: string) =>
  Buffer.concat([idBytes(workspaceId), randomBytes(32)]).toString('base64url');

const workspaceOfSecret = (secret: string): string | null => {
  if (!/^[\w-]{64}$/.test(secret)) return null;
  const bytes = Buffer.from(secret, 'base64url');
  return bytes.length === 48 ? idOf(bytes.subarray(0, 16)) : null;
};

function inviteEmail(
  to: string,
  invite: { inviter: string; workspace: string; role: WorkspaceRole; link: string },
): Email {
  const { inviter, workspace, role, link } = invite;
  const line = `${inviter} invited you to the workspace “${workspace}” on Shiplog, as ${roleLabels[role].toLowerCase()}.`;
  const after = `Sign in or create an account with this address (${to}), prove the address in Settings, then accept. The invite works for ${INVITE_DAYS} days; if you were not expecting it, ignore this email.`;
  return {
    to,
    subject: `${inviter} invited you to ${workspace} on Shiplog`,
    text: [line, '', link, '', after].join('\n'),
    html: `<p>${escapeHtml(line)}</p>\n<p><a href="${escapeHtml(link)}">Open the invite</a></p>\n<p>${escapeHtml(after)}</p>`,
  };
}

/**
 * Team workspaces: creating one (the paid tier's, by billing's word at this moment), its members and
 * roles, and invites by username or email. Every change is a command on the workspace's stream, which
 * decides who may make it from the roles it holds; reads are from the `workspaces` read model, to
 * members only (anyone else gets 404).
 */
export function workspacesApi(context: ServiceContext<IdentityEnv>, accounts: Accounts, mailer: Mailer) {
  const { store, pool, config, services, logger } = context;

  async function run(
    req: Request,
    res: Response,
    workspaceId: string,
    command: WorkspaceCommand,
    idempotencyKey?: string,
  ): Promise<ActiveWorkspace | null> {
    const result = await handleCommand(store, workspaceStream(workspaceId), workspaceDecider, command, {
      userId: requireUserId(req),
      correlationId: callerOf(req).correlationId,
      address: callerOf(req).address,
      newStream: command.type === 'CreateWorkspace',
      idempotencyKey,
      now: context.now(),
    });
    if (result.position) reportPosition(res, 'identity', result.position);
    return result.state.status === 'active' ? result.state : null;
  }

  const idOfPath = (req: Request, name: string, notFound: () => Error) => {
    const id = req.params[name];
    if (!isId(id)) throw notFound();
    return id;
  };
  const workspaceIdOf = (req: Request) => idOfPath(req, 'id', workspaceNotFound);

  /** The caller's role in the workspace, from the read model: 404 for a non-member, 403 below `least`. */
  /** The team's plan is its owners' (decision 047). */
  const plans = teamPlans({
    ...context,
    members: {
      ownersOf: async (db, workspaceId) =>
        (await membersOf(db, workspaceId)).filter((member) => member.role === 'owner').map((member) => member.userId),
    },
  });

  async function roleIn(req: Request, workspaceId: string, least: WorkspaceRole): Promise<WorkspaceView> {
    const workspace = await workspaceOf(pool, workspaceId, requireUserId(req));
    if (!workspace) throw workspaceNotFound();
    if (!roleAtLeast(workspace.role, least))
      throw new ForbiddenError('Only an owner or admin of this workspace can do that');
    return workspace;
  }

  /** The caller as an invite names them: their account, and their address if they proved it. */
  async function invitedAs(req: Request): Promise<Invited> {
    const user = await accounts.currentUser(req);
    return { userId: user.id, provenEmailHash: user.email && user.emailVerified ? emailHash(user.email) : null };
  }

  const view = (state: ActiveWorkspace, userId: string): WorkspaceView => ({
    id: state.workspaceId,
    name: state.name,
    slug: state.slug,
    role: state.members[userId]?.role ?? 'viewer',
    memberCount: Object.keys(state.members).length,
    createdAt: state.createdAt,
  });

  /**
   * The workspace an invite is in, from the read model. An invite sent by someone else a moment ago
   * may not have reached it; the caller's own writes have (catchUp).
   */
  async function workspaceOfInvite(req: Request): Promise<string> {
    const inviteId = idOfPath(req, 'id', inviteNotFound);
    const caughtUp = await catchUp(req);
    const workspaceId = await inviteWorkspace(pool, inviteId);
    if (!workspaceId) throw caughtUp ? inviteNotFound() : notCaughtUp();
    return workspaceId;
  }

  /** A command on a slug's claim (`workspace-slug-<slug>`), decided again if another raced it. */
  const slugCommand = (req: Request, slug: string, command: SlugCommand) =>
    handleCommand(store, slugStream(slug), slugDecider, command, {
      userId: requireUserId(req),
      correlationId: callerOf(req).correlationId,
      retries: 2,
      now: context.now(),
    });

  /**
   * The workspace's slug: claimed first (409 when another workspace has it), then set by an admin (a
   * refusal gives the claim back), then the slug it replaces given up, leading here for 30 days more.
   */
  async function setSlug(req: Request, res: Response, workspaceId: string, slug: string, by: string) {
    // A workspace made a moment ago is in the read model once the caller's writes are.
    await catchUp(req);
    await roleIn(req, workspaceId, 'admin');
    await slugCommand(req, slug, { type: 'ClaimSlug', slug, workspaceId });
    const release = (of: string, redirectUntil: Date) =>
      slugCommand(req, of, { type: 'ReleaseSlug', slug: of, workspaceId, redirectUntil: redirectUntil.toISOString() });
    const before = await loadAggregate(store, workspaceStream(workspaceId), workspaceDecider);
    const previous = before.state.status === 'active' ? before.state.slug : null;
    let state: ActiveWorkspace | null;
    try {
      state = await run(req, res, workspaceId, { type: 'SetSlug', slug, by });
    } catch (error) {
      if (previous !== slug) await release(slug, context.now());
      throw error;
    }
    if (previous && previous !== slug)
      await release(previous, new Date(context.now().getTime() + SLUG_REDIRECT_DAYS * 86_400_000));
    return state;
  }

  const usernameOf = async (userId: string) => (await accounts.loadUser(userId))?.username ?? 'deleted user';

  return serveRoutes(workspaceRoutes, {
    'GET /workspaces': async (req, res) => {
      res.json(await workspacesOf(pool, requireUserId(req)));
    },

    'POST /workspaces': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { name } = parsed.body;
      if (!inPaidTier(await currentSubscription(services, callerOf(req)), context.now()))
        throw new ForbiddenError(WORKSPACE_NEEDS_PLAN_MESSAGE, 'SUBSCRIPTION_REQUIRED');
      const { id: workspaceId, idempotencyKey } = createdId(req, userId, 'workspace');
      const state = await run(
        req,
        res,
        workspaceId,
        { type: 'CreateWorkspace', workspaceId, name, ownerId: userId },
        idempotencyKey,
      );
      if (!state) throw workspaceNotFound();
      res.status(201).json(view(state, userId));
    },

    'GET /workspaces/:id': async (req, res) => {
      const workspace = await roleIn(req, workspaceIdOf(req), 'viewer');
      // As its projects' changes find it: asked of billing now.
      res.json({ ...workspace, readOnly: await plans.readOnly(workspace.id, callerOf(req)) });
    },

    'PUT /workspaces/:id': async (req, res, parsed) => {
      const by = requireUserId(req);
      const workspaceId = workspaceIdOf(req);
      const { name, slug } = parsed.body;
      let state: ActiveWorkspace | null = null;
      if (slug !== undefined) state = await setSlug(req, res, workspaceId, slug, by);
      if (name !== undefined) state = await run(req, res, workspaceId, { type: 'RenameWorkspace', name, by });
      if (!state) throw workspaceNotFound();
      res.json(view(state, by));
    },

    'GET /public/workspaces/:slug': async (req, res) => {
      const found = await workspaceBySlug(pool, String(req.params.slug), context.now());
      if (!found) throw workspaceNotFound();
      res.json(found);
    },

    'DELETE /workspaces/:id': async (req, res) => {
      const by = requireUserId(req);
      const workspaceId = workspaceIdOf(req);
      const before = await workspaceOf(pool, workspaceId, by);
      await run(req, res, workspaceId, { type: 'DeleteWorkspace', by });
      // Its slug leads nowhere now, and is free at once.
      if (before?.slug)
        await slugCommand(req, before.slug, {
          type: 'ReleaseSlug',
          slug: before.slug,
          workspaceId,
          redirectUntil: context.now().toISOString(),
        });
      res.status(204).end();
    },

    'GET /workspaces/:id/members': async (req, res) => {
      const workspace = await roleIn(req, workspaceIdOf(req), 'viewer');
      res.json(await membersOf(pool, workspace.id));
    },

    'PUT /workspaces/:id/members/:userId': async (req, res, parsed) => {
      const workspaceId = workspaceIdOf(req);
      const memberId = idOfPath(req, 'userId', () => new NotFoundError('Member not found', 'MEMBER_NOT_FOUND'));
      const { role } = parsed.body;
      const state = await run(req, res, workspaceId, { type: 'ChangeRole', memberId, role, by: requireUserId(req) });
      const member = state?.members[memberId];
      if (!member) throw new NotFoundError('Member not found', 'MEMBER_NOT_FOUND');
      res.json({
        userId: memberId,
        username: await usernameOf(memberId),
        role: member.role,
        joinedAt: member.joinedAt,
      });
    },

    'DELETE /workspaces/:id/members/:userId': async (req, res) => {
      const workspaceId = workspaceIdOf(req);
      const memberId = idOfPath(req, 'userId', () => new NotFoundError('Member not found', 'MEMBER_NOT_FOUND'));
      await run(req, res, workspaceId, { type: 'RemoveMember', memberId, by: requireUserId(req) });
      res.status(204).end();
    },

    'GET /workspaces/:id/invites': async (req, res) => {
      const workspace = await roleIn(req, workspaceIdOf(req), 'admin');
      res.json(await sentInvites(pool, workspace.id, context.now()));
    },

    'POST /workspaces/:id/invites': async (req, res, parsed) => {
      const by = requireUserId(req);
      const workspaceId = workspaceIdOf(req);
      const input = parsed.body;
      const { id: inviteId, idempotencyKey } = createdId(req, by, 'workspace-invite');
      const expiresAt = new Date(context.now().getTime() + INVITE_DAYS * DAY_MS).toISOString();
      const base = {
        type: 'SendInvite',
        inviteId,
        role: input.role,
        by,
        expiresAt,
        maxMembers: config.WORKSPACE_MAX_MEMBERS,
      } as const;
      if (input.username !== undefined) {
        const invitee = await accounts.findByUsername(input.username);
        if (!invitee) throw new NotFoundError('No account has that username', 'USER_NOT_FOUND');
        const state = await run(req, res, workspaceId, { ...base, to: { userId: invitee.id } }, idempotencyKey);
        const invite = state?.invites[inviteId];
        if (!invite) throw inviteNotFound();
        res.status(201).json({ id: inviteId, role: invite.role, expiresAt: invite.expiresAt });
        return;
      }
      const email = input.email!;
      const secret = newInviteSecret(workspaceId);
      const to = { emailHash: emailHash(email), emailHint: emailHint(email), secretHash: hashTokenText(secret) };
      const state = await run(req, res, workspaceId, { ...base, to }, idempotencyKey);
      const invite = state?.invites[inviteId];
      if (!state || !invite) throw inviteNotFound();
      // A repeated request answers the first one's invite: its link was given then, and only then.
      if (invite.secretHash !== to.secretHash) {
        res.status(201).json({ id: inviteId, role: invite.role, expiresAt: invite.expiresAt });
        return;
      }
      const url = `${config.APP_URL.replace(/\/$/, '')}/invite/${inviteId}#${secret}`;
      try {
        const inviter = callerOf(req).username ?? (await usernameOf(by));
        await mailer.send(inviteEmail(email, { inviter, workspace: state.name, role: invite.role, link: url }));
      } catch (error) {
        // The invite stands: the admin has its link to pass on.
        logger.error({ err: error, workspaceId, inviteId }, 'the invite email could not be sent');
      }
      res.status(201).json({ id: inviteId, role: invite.role, expiresAt: invite.expiresAt, url });
    },

    'DELETE /workspaces/:id/invites/:inviteId': async (req, res) => {
      const workspaceId = workspaceIdOf(req);
      const inviteId = idOfPath(req, 'inviteId', inviteNotFound);
      await run(req, res, workspaceId, { type: 'RevokeInvite', inviteId, by: requireUserId(req) });
      res.status(204).end();
    },

    'GET /invites': async (req, res) => {
      res.json(await receivedInvites(pool, await invitedAs(req), context.now()));
    },

    'POST /invites/:id/accept': async (req, res) => {
      const workspaceId = await workspaceOfInvite(req);
      const invited = await invitedAs(req);
      const command = {
        type: 'AcceptInvite',
        inviteId: req.params.id!,
        invited,
        maxMembers: config.WORKSPACE_MAX_MEMBERS,
      } as const;
      const state = await run(req, res, workspaceId, command);
      if (!state?.members[invited.userId]) throw inviteNotFound();
      res.json(view(state, invited.userId));
    },

    'POST /invites/:id/decline': async (req, res) => {
      const workspaceId = await workspaceOfInvite(req);
      await run(req, res, workspaceId, {
        type: 'DeclineInvite',
        inviteId: req.params.id!,
        invited: await invitedAs(req),
      });
      res.status(204).end();
    },

    // The signed-out invite page: the link's secret names the workspace, and must be the invite's.
    'POST /invites/:id/preview': async (req, res, parsed) => {
      const inviteId = idOfPath(req, 'id', inviteNotFound);
      const { secret } = parsed.body;
      const workspaceId = workspaceOfSecret(secret);
      if (!workspaceId) throw inviteNotFound();
      const { state } = await loadAggregate(store, workspaceStream(workspaceId), workspaceDecider);
      const invite = state.status === 'active' ? state.invites[inviteId] : undefined;
      if (
        state.status !== 'active' ||
        !invite?.secretHash ||
        !sameDigest(hashTokenText(secret), invite.secretHash) ||
        !isPending(invite, context.now())
      )
        throw inviteNotFound();
      res.json({
        id: inviteId,
        workspace: { id: workspaceId, name: state.name },
        role: invite.role,
        invitedBy: await usernameOf(invite.invitedBy),
        expiresAt: invite.expiresAt,
      });
    },
  });
}
