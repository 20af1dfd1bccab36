import { type ConsumerDefinition, causedBy, handleCommand, type ServiceContext } from '@shiplog/service-kit';
import type { ProjectsEnv } from '../../env.ts';
import { projectDecider } from '../../project/decide.ts';
import { projectStream } from '../../project/project.ts';
import { projectsOfWorkspace } from '../../read-models/project-list/index.ts';

/**
 * A deleted workspace's projects go with it: each is deleted as its owner would delete it (and each
 * service's own cascade follows its `ProjectDeleted`). Idempotent per event and project, so a
 * redelivery deletes nothing twice.
 */
export function workspaceCascadeReaction({ store }: ServiceContext<ProjectsEnv>): ConsumerDefinition {
  return {
    name: 'workspace-cascade',
    sources: ['identity'],
    only: 'WorkspaceDeleted',
    handlers: {
      WorkspaceDeleted: async (event, tx) => {
        const { workspaceId, deletedBy } = event.data;
        // Read in the batch's transaction: not a second connection while it holds one.
        for (const projectId of await projectsOfWorkspace(tx, workspaceId)) {
          await handleCommand(
            store,
            projectStream(projectId),
            projectDecider,
            { type: 'DeleteProject', userId: deletedBy },
            causedBy(event, tx, `workspace-cascade:${event.id}:${projectId}`, deletedBy),
          ).catch((error: unknown) => {
            // Deleted already (by a member, or by an earlier delivery of this event).
            if ((error as { status?: number }).status !== 404) throw error;
          });
        }
      },
    },
  };
}
