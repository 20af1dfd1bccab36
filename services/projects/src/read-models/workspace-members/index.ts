import { workspaceMembersIn } from '@shiplog/contracts';
import type { ProjectionDefinition } from '@shiplog/service-kit';

/**
 * Who belongs to which team workspace, with what role, from identity's events (`workspaceMembersIn`):
 * whose a workspace's projects are to read and change. The project list reads it beside its rows.
 */
export const workspaceMembers = workspaceMembersIn('projects');

export const workspaceMembersProjection: ProjectionDefinition = {
  name: 'workspace-members',
  sources: ['identity'],
  tables: ['workspace_members'],
  handlers: workspaceMembers.handlers,
};
