import type {
  InviteRole,
  MemberView,
  ReceivedInviteView,
  SentInviteView,
  WorkspaceDetailView,
  WorkspaceRole,
  WorkspaceView,
} from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ApiError, apiRequest, isNotFound, useCreates } from '../../lib/api';
import { keys, workspacesQuery } from '../../lib/queries';
import { told } from '../../lib/told';

/** The team workspaces the user belongs to, each with their role in it (lib/queries.ts: the project lists read it too). */
export { workspacesQuery };

/** One workspace, with the user's role in it (404 for anyone not in it). */
export const workspaceQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.workspaces, id],
    queryFn: () => apiRequest<WorkspaceDetailView>('GET', `/api/workspaces/${id}`),
  });

export const workspaceMembersQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.workspaces, id, 'members'],
    queryFn: () => apiRequest<MemberView[]>('GET', `/api/workspaces/${id}/members`),
  });

/** A workspace's pending invites: its owners and admins only. */
export const workspaceInvitesQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.workspaces, id, 'invites'],
    queryFn: () => apiRequest<SentInviteView[]>('GET', `/api/workspaces/${id}/invites`),
  });

/** The invites waiting for the user: to their username, or to their proven address. */
export const receivedInvitesQuery = queryOptions({
  queryKey: keys.invites,
  queryFn: () => apiRequest<ReceivedInviteView[]>('GET', '/api/invites'),
});

/**
 * What an emailed invite link is for, asked with its secret (no session needed): 404 when the link is
 * wrong, used, revoked or expired. Its own key, so a change to the user's invites does not ask again
 * for a link just used.
 */
export const invitePreviewQuery = (id: string, secret: string) =>
  queryOptions({
    queryKey: [...keys.invitePreview, id],
    queryFn: () => apiRequest<ReceivedInviteView>('POST', `/api/invites/${id}/preview`, { secret }),
  });

/** Whether `error` is the API's answer with `code`. */
export const hasCode = (error: unknown, ...codes: string[]): error is ApiError =>
  error instanceof ApiError && error.code !== undefined && codes.includes(error.code);

/** The server's message without its status (`409: …`), for where the user is looking. */
export const messageOf = (error: Error) => error.message.replace(/^\d+: /, '');

function useRefreshWorkspaces() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.workspaces });
}

/** A new workspace, its creator its owner: the trial's or a subscription's (403 SUBSCRIPTION_REQUIRED else). */
export function useCreateWorkspace() {
  const refresh = useRefreshWorkspaces();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: { name: string }) => creates.post<WorkspaceView>('/api/workspaces', input),
    onSuccess: refresh,
    meta: told({
      success: (workspace: WorkspaceView) => ({
        title: 'Workspace created',
        description: `“${workspace.name}” is ready: invite your team.`,
      }),
      // Without a plan the form says so, with the way to one.
      failure: (error) =>
        hasCode(error, 'SUBSCRIPTION_REQUIRED')
          ? null
          : { title: 'Failed to create workspace', description: error.message },
    }),
  });
}

export function useRenameWorkspace(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => apiRequest<WorkspaceView>('PUT', `/api/workspaces/${id}`, input),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceQuery(id).queryKey, (shown) => (shown ? { ...shown, ...workspace } : shown));
      return queryClient.invalidateQueries({ queryKey: keys.workspaces, exact: true });
    },
    meta: told({
      success: (workspace: WorkspaceView) => ({
        title: 'Workspace renamed',
        description: `It is now “${workspace.name}”.`,
      }),
      failure: 'Failed to rename workspace',
    }),
  });
}

/** Chooses the address of the workspace's public status page (`/w/{slug}/status`): owners and admins. */
export function useWorkspaceSlug(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { slug: string }) => apiRequest<WorkspaceView>('PUT', `/api/workspaces/${id}`, input),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceQuery(id).queryKey, (shown) => (shown ? { ...shown, ...workspace } : shown));
      return queryClient.invalidateQueries({ queryKey: keys.workspaces, exact: true });
    },
    meta: told({
      success: (workspace: WorkspaceView) => ({
        title: 'Status page address saved',
        description: `Its status page is /w/${workspace.slug}/status.`,
      }),
      failure: 'Failed to save the address',
    }),
  });
}

/** Deletes the workspace (owners; the password again when it was typed a while ago), then back to the list. */
export function useDeleteWorkspace(workspace: Pick<WorkspaceView, 'id' | 'name'>) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', `/api/workspaces/${workspace.id}`),
    // Away from its page first, so nothing there asks for it again.
    onSuccess: async () => {
      await navigate({ to: '/workspaces' });
      queryClient.removeQueries({ queryKey: workspaceQuery(workspace.id).queryKey });
      await queryClient.invalidateQueries({ queryKey: keys.workspaces });
    },
    meta: told({
      success: { title: 'Workspace deleted', description: `“${workspace.name}” and its invites are gone.` },
      failure: 'Failed to delete workspace',
    }),
  });
}

export function useChangeRole(workspaceId: string) {
  const refresh = useRefreshWorkspaces();
  return useMutation({
    mutationFn: ({ member, role }: { member: MemberView; role: WorkspaceRole }) =>
      apiRequest<MemberView>('PUT', `/api/workspaces/${workspaceId}/members/${member.userId}`, { role }),
    onSettled: refresh,
    meta: told({
      success: (changed: MemberView) => ({
        title: 'Role changed',
        description: `${changed.username} is now ${roleArticle(changed.role)}.`,
      }),
      failure: 'Could not change the role',
    }),
  });
}

/** Removes a member, or (`self`) leaves the workspace, then back to the list. */
export function useRemoveMember(workspace: Pick<WorkspaceView, 'id' | 'name'>) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: ({ member }: { member: MemberView; self: boolean }) =>
      apiRequest<null>('DELETE', `/api/workspaces/${workspace.id}/members/${member.userId}`),
    onSuccess: async (_done, { self }) => {
      if (self) {
        await navigate({ to: '/workspaces' });
        queryClient.removeQueries({ queryKey: workspaceQuery(workspace.id).queryKey });
      }
      await queryClient.invalidateQueries({ queryKey: keys.workspaces });
    },
    meta: told({
      success: (_done: null, { member, self }: { member: MemberView; self: boolean }) =>
        self
          ? { title: 'You left the workspace', description: `You are no longer in “${workspace.name}”.` }
          : { title: 'Member removed', description: `${member.username} is no longer in “${workspace.name}”.` },
      failure: (error, { self }) => ({
        title: self ? 'Could not leave the workspace' : 'Could not remove the member',
        description: error.message,
      }),
    }),
  });
}

export type InviteInput = ({ username: string } | { email: string }) & { role: InviteRole };
export interface CreatedInvite {
  id: string;
  role: InviteRole;
  expiresAt: string;
  /** An emailed invite's link: in this answer only. */
  url?: string;
}

/** The refusals the invite form shows under its field (who was asked), rather than in a toast. */
export const INVITE_FIELD_CODES = ['USER_NOT_FOUND', 'ALREADY_MEMBER', 'INVITE_PENDING'];

export function useSendInvite(workspaceId: string) {
  const queryClient = useQueryClient();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: InviteInput) => creates.post<CreatedInvite>(`/api/workspaces/${workspaceId}/invites`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceInvitesQuery(workspaceId).queryKey }),
    meta: told({
      success: (_invite: CreatedInvite, input: InviteInput) => ({
        title: 'Invite sent',
        description: 'username' in input ? `${input.username} will see it on their Team workspaces page.` : null,
      }),
      failure: (error) =>
        hasCode(error, ...INVITE_FIELD_CODES) || (error instanceof ApiError && error.fieldErrors)
          ? null
          : { title: 'Failed to send invite', description: error.message },
    }),
  });
}

export function useRevokeInvite(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invite: SentInviteView) =>
      apiRequest<null>('DELETE', `/api/workspaces/${workspaceId}/invites/${invite.id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceInvitesQuery(workspaceId).queryKey }),
    meta: told({
      success: (_done: null, invite: SentInviteView) => ({
        title: 'Invite revoked',
        description: `The invite to ${invite.to} no longer works.`,
      }),
      failure: 'Failed to revoke invite',
    }),
  });
}

/**
 * Joins the invite's workspace: the answer is the workspace, with the role the invite gave.
 * `explainsNotFound`: the page says why a 404 came (an emailed invite, the address not proven), so no toast.
 */
export function useAcceptInvite(explainsNotFound = false) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invite: Pick<ReceivedInviteView, 'id'>) =>
      apiRequest<WorkspaceView>('POST', `/api/invites/${invite.id}/accept`),
    // Not waited for: the page that accepted may go to the workspace at once.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keys.invites });
      void queryClient.invalidateQueries({ queryKey: keys.workspaces });
    },
    meta: told({
      success: (workspace: WorkspaceView) => ({
        title: 'Invite accepted',
        description: `You joined “${workspace.name}” as ${roleArticle(workspace.role)}.`,
      }),
      failure: (error) =>
        explainsNotFound && isNotFound(error) ? null : { title: 'Failed to accept invite', description: error.message },
    }),
  });
}

export function useDeclineInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invite: Pick<ReceivedInviteView, 'id' | 'workspace'>) =>
      apiRequest<null>('POST', `/api/invites/${invite.id}/decline`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.invites }),
    meta: told({
      success: (_done: null, invite: Pick<ReceivedInviteView, 'workspace'>) => ({
        title: 'Invite declined',
        description: `You did not join “${invite.workspace.name}”.`,
      }),
      failure: 'Failed to decline invite',
    }),
  });
}

/** "an admin", "a member": a role as a sentence says it. */
export function roleArticle(role: WorkspaceRole): string {
  return `${role === 'owner' || role === 'admin' ? 'an' : 'a'} ${role}`;
}
