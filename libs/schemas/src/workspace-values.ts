/** Team workspaces' plain values, without zod: pages import them freely. */

/** A member's role, most powerful first (the catalog keeps the stored events' own list). */
export const workspaceRoles = ['owner', 'admin', 'member', 'viewer'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

/** The roles an invite may give: ownership passes only from an owner to a member. */
export const inviteRoles = ['admin', 'member', 'viewer'] as const;
export type InviteRole = (typeof inviteRoles)[number];

/** How many members a workspace has at most, unless WORKSPACE_MAX_MEMBERS says otherwise. */
export const DEFAULT_WORKSPACE_MAX_MEMBERS = 10;

/** How long an invite can be accepted. */
export const INVITE_DAYS = 7;

/** What each role may do, by the least role that may. */
const rank: Record<WorkspaceRole, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

/** Whether `role` is `least` or more powerful. */
export const roleAtLeast = (role: WorkspaceRole, least: WorkspaceRole): boolean => rank[role] >= rank[least];

export const roleLabels: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

/** Why a workspace none of whose owners has a plan takes no changes (403 `SUBSCRIPTION_REQUIRED`, and its page says it). */
export const WORKSPACE_READ_ONLY_MESSAGE =
  'This workspace is read-only: none of its owners has a trial or subscription. Nothing is lost; changes come back with an owner’s plan.';

export const WORKSPACE_NEEDS_PLAN_MESSAGE =
  'Team workspaces come with your trial or a subscription. Please upgrade to create one.';
