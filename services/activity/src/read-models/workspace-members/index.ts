import { workspaceMembersIn } from '@shiplog/contracts';

/**
 * Who belongs to which team workspace, with what role, from identity's events (`workspaceMembersIn`,
 * its `projection`): whose a workspace's timeline is to read. The timeline reads it beside its rows.
 */
export const workspaceMembers = workspaceMembersIn('activity');
