import type { Decider } from '@shiplog/service-kit';
import { evolveWorkflowRuns, initialWorkflowRuns, type WorkflowRunEvent, type WorkflowRuns } from './workflow-run.ts';

/** The project a run is of: whose it is, its team's, its name. */
export interface RunProject {
  id: string;
  userId: string;
  workspaceId: string | null;
  name: string;
}

export type WorkflowRunCommand = {
  type: 'ReportFailedRun';
  project: RunProject;
  run: { workflow: string; runId: number; runUrl: string | null; branch: string; trigger: string };
};

export function decideWorkflowRuns(command: WorkflowRunCommand, state: WorkflowRuns, now: Date): WorkflowRunEvent[] {
  const { project, run } = command;
  // GitHub delivered its end again (a redelivery, a re-run's attempt): alerted once.
  if (state.failed.has(run.runId)) return [];
  return [
    {
      type: 'WorkflowRunFailed',
      data: {
        projectId: project.id,
        ...(project.workspaceId ? { workspaceId: project.workspaceId } : {}),
        userId: project.userId,
        projectName: project.name,
        ...run,
        at: now.toISOString(),
      },
    },
  ];
}

export const workflowRunsDecider: Decider<WorkflowRuns, WorkflowRunCommand, WorkflowRunEvent> = {
  initialState: initialWorkflowRuns,
  evolve: evolveWorkflowRuns,
  decide: decideWorkflowRuns,
};
