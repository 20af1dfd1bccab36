import type { EventOf } from '@shiplog/events';
import type { InviteRole, WorkspaceRole } from '@shiplog/schemas';

/** A team workspace, folded from its `workspace-<id>` stream: its name, members and invites. */
export type WorkspaceEvent =
  | EventOf<'WorkspaceCreated'>
  | EventOf<'WorkspaceRenamed'>
  | EventOf<'WorkspaceSlugSet'>
  | EventOf<'WorkspaceDeleted'>
  | EventOf<'WorkspaceInviteSent'>
  | EventOf<'WorkspaceInviteLinkMade'>
  | EventOf<'WorkspaceInviteRevoked'>
  | EventOf<'WorkspaceInviteDeclined'>
  | EventOf<'WorkspaceMemberJoined'>
  | EventOf<'WorkspaceMemberRoleChanged'>
  | EventOf<'WorkspaceMemberRemoved'>;

export interface Member {
  role: WorkspaceRole;
  joinedAt: string;
}

/** Whom an invite is for: an account, or whoever proves the address whose SHA-256 it keeps. */
export type Invitee = { userId: string } | { emailHash: string };

export interface Invite {
  inviteId: string;
  role: InviteRole;
  invitee: Invitee;
  invitedBy: string;
  expiresAt: string;
  /** The SHA-256 of an emailed link's secret. */
  secretHash: string | null;
  status: 'pending' | 'accepted' | 'declined' | 'revoked';
}

export type Workspace =
  | { status: 'none' }
  | { status: 'deleted' }
  | {
      status: 'active';
      workspaceId: string;
      name: string;
      /** Its public status page's address; null until chosen. */
      slug: string | null;
      createdAt: string;
      /** By user id. */
      members: Record<string, Member>;
      invites: Record<string, Invite>;
    };

export type ActiveWorkspace = Extract<Workspace, { status: 'active' }>;

export const initialWorkspace = (): Workspace => ({ status: 'none' });

export function evolveWorkspace(state: Workspace, event: WorkspaceEvent): Workspace {
  if (event.type === 'WorkspaceCreated') {
    const { workspaceId, name, ownerId, at } = event.data;
    return {
      status: 'active',
      workspaceId,
      name,
      slug: null,
      createdAt: at,
      members: { [ownerId]: { role: 'owner', joinedAt: at } },
      invites: {},
    };
  }
  if (event.type === 'WorkspaceDeleted') return { status: 'deleted' };
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'WorkspaceRenamed':
      return { ...state, name: event.data.name };
    case 'WorkspaceSlugSet':
      return { ...state, slug: event.data.slug };
    case 'WorkspaceInviteSent': {
      const d = event.data;
      const invite: Invite = {
        inviteId: d.inviteId,
        role: d.role as InviteRole,
        invitee: d.inviteeId ? { userId: d.inviteeId } : { emailHash: d.emailHash ?? '' },
        invitedBy: d.invitedBy,
        expiresAt: d.expiresAt,
        secretHash: null,
        status: 'pending',
      };
      return { ...state, invites: { ...state.invites, [d.inviteId]: invite } };
    }
    case 'WorkspaceInviteLinkMade':
      return withInvite(state, event.data.inviteId, { secretHash: event.data.secretHash });
    case 'WorkspaceInviteRevoked':
      return withInvite(state, event.data.inviteId, { status: 'revoked' });
    case 'WorkspaceInviteDeclined':
      return withInvite(state, event.data.inviteId, { status: 'declined' });
    case 'WorkspaceMemberJoined': {
      const { memberId, role, inviteId, at } = event.data;
      const joined = withInvite(state, inviteId, { status: 'accepted' });
      return { ...joined, members: { ...joined.members, [memberId]: { role, joinedAt: at } } };
    }
    case 'WorkspaceMemberRoleChanged': {
      const { memberId, role } = event.data;
      const member = state.members[memberId];
      return member ? { ...state, members: { ...state.members, [memberId]: { ...member, role } } } : state;
    }
    case 'WorkspaceMemberRemoved': {
      const { [event.data.memberId]: _gone, ...members } = state.members;
      return { ...state, members };
    }
  }
}

function withInvite(state: ActiveWorkspace, inviteId: string, change: Partial<Invite>): ActiveWorkspace {
  const invite = state.invites[inviteId];
  return invite ? { ...state, invites: { ...state.invites, [inviteId]: { ...invite, ...change } } } : state;
}

export const workspaceStream = (workspaceId: string) => `workspace-${workspaceId}`;
