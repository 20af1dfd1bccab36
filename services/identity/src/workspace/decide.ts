import { ConflictError, ForbiddenError, NotFoundError } from '@shiplog/errors';
import { type InviteRole, roleAtLeast, type WorkspaceRole } from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';
import {
  type ActiveWorkspace,
  evolveWorkspace,
  type Invite,
  initialWorkspace,
  type Workspace,
  type WorkspaceEvent,
} from './workspace.ts';

/** Who an invite or its acceptance names: an account, and the SHA-256 of its proven address if any. */
export interface Invited {
  userId: string;
  provenEmailHash: string | null;
}

export type WorkspaceCommand =
  | { type: 'CreateWorkspace'; workspaceId: string; name: string; ownerId: string }
  | { type: 'RenameWorkspace'; name: string; by: string }
  /** Its slug, once claimed (`workspace-slug/`). */
  | { type: 'SetSlug'; slug: string; by: string }
  | { type: 'DeleteWorkspace'; by: string }
  | {
      type: 'SendInvite';
      inviteId: string;
      role: InviteRole;
      to: { userId: string } | { emailHash: string; emailHint: string; secretHash: string };
      by: string;
      expiresAt: string;
      maxMembers: number;
    }
  | { type: 'RevokeInvite'; inviteId: string; by: string }
  | { type: 'AcceptInvite'; inviteId: string; invited: Invited; maxMembers: number }
  | { type: 'DeclineInvite'; inviteId: string; invited: Invited }
  | { type: 'ChangeRole'; memberId: string; role: WorkspaceRole; by: string }
  | { type: 'RemoveMember'; memberId: string; by: string }
  /**
   * The member's account is being deleted: they leave; a workspace they alone own passes to its
   * longest-standing admin, or goes when nobody else is in it.
   */
  | { type: 'RemoveDeletedAccount'; memberId: string };

export const workspaceNotFound = () => new NotFoundError('Workspace not found', 'WORKSPACE_NOT_FOUND');
export const inviteNotFound = () => new NotFoundError('Invite not found', 'INVITE_NOT_FOUND');
const memberNotFound = () => new NotFoundError('Member not found', 'MEMBER_NOT_FOUND');
const needsRole = (role: WorkspaceRole) =>
  new ForbiddenError(
    role === 'owner'
      ? 'Only an owner of this workspace can do that'
      : 'Only an owner or admin of this workspace can do that',
  );
export const LAST_OWNER_MESSAGE =
  'A workspace always has an owner: make another member owner first, or delete the workspace.';

/** The caller's role, or 404 when they are not a member (non-members learn nothing). */
function roleOf(state: ActiveWorkspace, userId: string): WorkspaceRole {
  const member = state.members[userId];
  if (!member) throw workspaceNotFound();
  return member.role;
}

function requireRole(state: ActiveWorkspace, userId: string, least: WorkspaceRole): void {
  if (!roleAtLeast(roleOf(state, userId), least)) throw needsRole(least);
}

const owners = (state: ActiveWorkspace) =>
  Object.entries(state.members).filter(([, member]) => member.role === 'owner').length;

const pending = (state: ActiveWorkspace, now: Date) =>
  Object.values(state.invites).filter((invite) => isPending(invite, now));

export const isPending = (invite: Invite, now: Date) =>
  invite.status === 'pending' && Date.parse(invite.expiresAt) > now.getTime();

/** Whether the invite is for this account (by its id, or by its proven address). */
export const isFor = (invite: Invite, invited: Invited) =>
  'userId' in invite.invitee
    ? invite.invitee.userId === invited.userId
    : invited.provenEmailHash !== null && invite.invitee.emailHash === invited.provenEmailHash;

const fullMessage = (max: number) => `A workspace has up to ${max} members, pending invites included.`;

/** The invite the invited account may answer: someone else's, or one no longer open, is not found. */
function openInviteFor(state: ActiveWorkspace, inviteId: string, invited: Invited, now: Date): Invite {
  const invite = state.invites[inviteId];
  if (invite?.status !== 'pending' || !isFor(invite, invited)) throw inviteNotFound();
  if (Date.parse(invite.expiresAt) <= now.getTime())
    throw new ConflictError('This invite has expired. Ask for a new one.', 'INVITE_EXPIRED');
  return invite;
}

export function decideWorkspace(command: WorkspaceCommand, state: Workspace, now: Date): WorkspaceEvent[] {
  const at = now.toISOString();
  if (command.type === 'CreateWorkspace') {
    if (state.status !== 'none') return [];
    const { workspaceId, name, ownerId } = command;
    return [{ type: 'WorkspaceCreated', data: { workspaceId, name, ownerId, at } }];
  }
  if (state.status !== 'active') throw workspaceNotFound();
  const { workspaceId } = state;
  switch (command.type) {
    case 'RenameWorkspace':
      requireRole(state, command.by, 'admin');
      if (command.name === state.name) return [];
      return [{ type: 'WorkspaceRenamed', data: { workspaceId, name: command.name, renamedBy: command.by, at } }];

    case 'SetSlug':
      requireRole(state, command.by, 'admin');
      if (command.slug === state.slug) return [];
      return [
        {
          type: 'WorkspaceSlugSet',
          data: { workspaceId, slug: command.slug, previous: state.slug, setBy: command.by, at },
        },
      ];

    case 'DeleteWorkspace':
      requireRole(state, command.by, 'owner');
      return [{ type: 'WorkspaceDeleted', data: { workspaceId, deletedBy: command.by, at } }];

    case 'SendInvite': {
      requireRole(state, command.by, 'admin');
      const { inviteId, role, to, by, expiresAt } = command;
      if ('userId' in to && state.members[to.userId])
        throw new ConflictError('That user is already a member of this workspace', 'ALREADY_MEMBER');
      const open = pending(state, now);
      const same = open.find((invite) =>
        'userId' in to
          ? 'userId' in invite.invitee && invite.invitee.userId === to.userId
          : 'emailHash' in invite.invitee && invite.invitee.emailHash === to.emailHash,
      );
      if (same)
        throw new ConflictError('An invite to them is already waiting: revoke it to send another', 'INVITE_PENDING');
      if (Object.keys(state.members).length + open.length >= command.maxMembers)
        throw new ConflictError(fullMessage(command.maxMembers), 'WORKSPACE_FULL');
      const sent: WorkspaceEvent = {
        type: 'WorkspaceInviteSent',
        data: {
          workspaceId,
          inviteId,
          role,
          invitedBy: by,
          inviteeId: 'userId' in to ? to.userId : null,
          emailHash: 'emailHash' in to ? to.emailHash : null,
          emailHint: 'emailHint' in to ? to.emailHint : null,
          expiresAt,
          at,
        },
      };
      if (!('secretHash' in to)) return [sent];
      return [sent, { type: 'WorkspaceInviteLinkMade', data: { workspaceId, inviteId, secretHash: to.secretHash } }];
    }

    case 'RevokeInvite': {
      requireRole(state, command.by, 'admin');
      const invite = state.invites[command.inviteId];
      if (invite?.status !== 'pending') throw inviteNotFound();
      return [
        { type: 'WorkspaceInviteRevoked', data: { workspaceId, inviteId: invite.inviteId, revokedBy: command.by, at } },
      ];
    }

    case 'AcceptInvite': {
      const invite = openInviteFor(state, command.inviteId, command.invited, now);
      const memberId = command.invited.userId;
      if (state.members[memberId])
        return [
          {
            type: 'WorkspaceInviteDeclined',
            data: { workspaceId, inviteId: invite.inviteId, declinedBy: memberId, at },
          },
        ];
      if (Object.keys(state.members).length >= command.maxMembers)
        throw new ConflictError(fullMessage(command.maxMembers), 'WORKSPACE_FULL');
      return [
        {
          type: 'WorkspaceMemberJoined',
          data: { workspaceId, memberId, role: invite.role, inviteId: invite.inviteId, at },
        },
      ];
    }

    case 'DeclineInvite': {
      const invite = openInviteFor(state, command.inviteId, command.invited, now);
      return [
        {
          type: 'WorkspaceInviteDeclined',
          data: { workspaceId, inviteId: invite.inviteId, declinedBy: command.invited.userId, at },
        },
      ];
    }

    case 'ChangeRole': {
      const { memberId, role, by } = command;
      const actor = roleOf(state, by);
      const member = state.members[memberId];
      if (!member) throw memberNotFound();
      // Admins manage members and admins; owners are made and unmade by owners.
      const least = role === 'owner' || member.role === 'owner' ? 'owner' : 'admin';
      if (!roleAtLeast(actor, least)) throw needsRole(least);
      if (member.role === role) return [];
      if (member.role === 'owner' && owners(state) === 1) throw new ConflictError(LAST_OWNER_MESSAGE, 'LAST_OWNER');
      return [{ type: 'WorkspaceMemberRoleChanged', data: { workspaceId, memberId, role, changedBy: by, at } }];
    }

    case 'RemoveMember': {
      const { memberId, by } = command;
      const actor = roleOf(state, by);
      const member = state.members[memberId];
      if (!member) throw memberNotFound();
      // Anyone may leave; otherwise admins remove, and only owners remove an owner.
      if (memberId !== by) {
        const least = member.role === 'owner' ? 'owner' : 'admin';
        if (!roleAtLeast(actor, least)) throw needsRole(least);
      }
      if (member.role === 'owner' && owners(state) === 1) throw new ConflictError(LAST_OWNER_MESSAGE, 'LAST_OWNER');
      return [{ type: 'WorkspaceMemberRemoved', data: { workspaceId, memberId, removedBy: by, at } }];
    }

    case 'RemoveDeletedAccount': {
      const { memberId } = command;
      const member = state.members[memberId];
      if (!member) return [];
      const others = Object.entries(state.members).filter(([id]) => id !== memberId);
      if (others.length === 0) return [{ type: 'WorkspaceDeleted', data: { workspaceId, deletedBy: memberId, at } }];
      const removed: WorkspaceEvent = {
        type: 'WorkspaceMemberRemoved',
        data: { workspaceId, memberId, removedBy: memberId, at },
      };
      if (member.role !== 'owner' || owners(state) > 1) return [removed];
      // The longest-standing admin takes over.
      const heir = others
        .filter(([, other]) => other.role === 'admin')
        .sort(([, a], [, b]) => a.joinedAt.localeCompare(b.joinedAt))[0];
      if (!heir)
        throw new ConflictError(
          `You are the only owner of the workspace “${state.name}”, and it has no admin to pass it to. Make another member owner, or delete the workspace, then delete your account.`,
          'LAST_OWNER',
        );
      return [
        {
          type: 'WorkspaceMemberRoleChanged',
          data: { workspaceId, memberId: heir[0], role: 'owner', changedBy: memberId, at },
        },
        removed,
      ];
    }
  }
}

export const workspaceDecider: Decider<Workspace, WorkspaceCommand, WorkspaceEvent> = {
  initialState: initialWorkspace,
  evolve: evolveWorkspace,
  decide: decideWorkspace,
};
