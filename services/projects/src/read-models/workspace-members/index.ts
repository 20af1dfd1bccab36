import { workspaceMembersIn } from '@shiplog/contracts';

/**
 * Who belongs to which team workspace, with what role, from identity's events (`workspaceMembersIn`,
 * its `projection`): whose a workspace's projects are to read and change. The project list reads it
 * beside its rows.
 */
export const workspaceMembers = workspaceMembersIn('projects');
