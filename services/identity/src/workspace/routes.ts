import {
  createdInviteView,
  inviteInputSchema,
  inviteSecretSchema,
  memberRoleSchema,
  memberView,
  receivedInviteView,
  sentInviteView,
  workspaceChangeSchema,
  workspaceDetailView,
  workspaceInputSchema,
  workspaceView,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/**
 * Team workspaces, their members and their invites (answered in `api.ts`). Who may do what within a
 * workspace is its role's, decided from its stream (`decide.ts`); these say who may call at all:
 * a signed-in user, with the session (never an API token: membership is not a token's business).
 */
export const workspaceRoutes = declareRoutes({
  'GET /workspaces': {
    tag: 'Workspaces',
    summary: 'The team workspaces the user belongs to, with their role',
    access: 'user',
    answer: z.array(workspaceView),
  },
  'POST /workspaces': {
    tag: 'Workspaces',
    summary: 'Create a team workspace (trial or subscription), its creator its owner',
    description: 'An `Idempotency-Key` header makes a repeated request create the workspace once.',
    access: 'user',
    idempotent: true,
    body: workspaceInputSchema,
    status: 201,
    answer: workspaceView,
  },
  'GET /workspaces/:id': {
    tag: 'Workspaces',
    summary: 'One workspace (members), and whether it is read-only for want of an owner’s plan',
    access: 'user',
    answer: workspaceDetailView,
  },
  'PUT /workspaces/:id': {
    tag: 'Workspaces',
    summary: 'Rename a workspace, or choose the address of its public status page (owners and admins)',
    description:
      '`slug` makes the team status page `/w/{slug}/status`: unique (409 `SLUG_TAKEN`); a slug given up still leads to the workspace for 30 days, and nobody else takes it before then.',
    access: 'user',
    body: workspaceChangeSchema,
    answer: workspaceView,
  },
  // For the team status page (the gateway's public-profile.ts).
  'GET /public/workspaces/:slug': {
    summary: 'The workspace a slug leads to: its id, name and current slug',
    access: 'public',
    internal: true,
    answer: z.object({ workspaceId: z.uuid(), name: z.string(), slug: z.string() }),
  },
  'DELETE /workspaces/:id': {
    tag: 'Workspaces',
    summary: 'Delete a workspace (owners)',
    access: 'user',
    recentAuth: true,
    status: 204,
  },
  'GET /workspaces/:id/members': {
    tag: 'Workspaces',
    summary: 'A workspace’s members and their roles (members)',
    access: 'user',
    answer: z.array(memberView),
  },
  'PUT /workspaces/:id/members/:userId': {
    tag: 'Workspaces',
    summary: 'Change a member’s role (owners and admins; owners for an owner)',
    access: 'user',
    body: memberRoleSchema,
    answer: memberView,
  },
  'DELETE /workspaces/:id/members/:userId': {
    tag: 'Workspaces',
    summary: 'Remove a member (owners and admins), or leave (the member)',
    access: 'user',
    status: 204,
  },
  'GET /workspaces/:id/invites': {
    tag: 'Workspaces',
    summary: 'A workspace’s pending invites (owners and admins)',
    access: 'user',
    answer: z.array(sentInviteView),
  },
  'POST /workspaces/:id/invites': {
    tag: 'Workspaces',
    summary: 'Invite an account by username, or an address by email (owners and admins)',
    description:
      'By email, the answer carries the link (`url`) this once, and the link is mailed; only its SHA-256 is kept. An invite lasts 7 days and is used once.',
    access: 'user',
    limit: 'invite',
    idempotent: true,
    body: inviteInputSchema,
    status: 201,
    answer: createdInviteView,
  },
  'DELETE /workspaces/:id/invites/:inviteId': {
    tag: 'Workspaces',
    summary: 'Revoke a pending invite (owners and admins)',
    access: 'user',
    status: 204,
  },
  'GET /invites': {
    tag: 'Workspaces',
    summary: 'The user’s pending invites: to their username, or to their proven address',
    access: 'user',
    answer: z.array(receivedInviteView),
  },
  'POST /invites/:id/accept': {
    tag: 'Workspaces',
    summary: 'Join the workspace an invite is for (the invited account)',
    access: 'user',
    answer: workspaceView,
  },
  'POST /invites/:id/decline': {
    tag: 'Workspaces',
    summary: 'Decline an invite (the invited account)',
    access: 'user',
    status: 204,
  },
  'POST /invites/:id/preview': {
    tag: 'Workspaces',
    summary: 'What an emailed invite link is for, shown before signing in',
    description: 'The link’s secret (the part after `#`) in the body: a wrong one answers 404.',
    access: 'public',
    limit: 'publicRead',
    body: inviteSecretSchema,
    answer: receivedInviteView,
  },
});
