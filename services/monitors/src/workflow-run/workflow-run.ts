import type { EventOf } from '@shiplog/events';

/**
 * A project's failed GitHub Actions runs on its default branch, as its `workflow-runs-<projectId>`
 * stream tells them: each run alerted once, however often GitHub delivers its end.
 */
export type WorkflowRunEvent = EventOf<'WorkflowRunFailed'>;

export const workflowRunsStream = (projectId: string) => `workflow-runs-${projectId}`;

/** The runs alerted so far. */
export interface WorkflowRuns {
  failed: ReadonlySet<number>;
}

export const initialWorkflowRuns = (): WorkflowRuns => ({ failed: new Set() });

export function evolveWorkflowRuns(state: WorkflowRuns, event: WorkflowRunEvent): WorkflowRuns {
  return { failed: new Set(state.failed).add(event.data.runId) };
}
