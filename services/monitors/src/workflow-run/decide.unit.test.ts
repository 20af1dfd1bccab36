import { describe, expect, it } from 'vitest';
import { decideWorkflowRuns } from './decide.ts';
import { evolveWorkflowRuns, initialWorkflowRuns } from './workflow-run.ts';

const now = new Date('2026-11-28T10:00:00.000Z');
const project = {
  id: '11111111-1111-4111-8111-111111111111',
  userId: '22222222-2222-4222-8222-222222222222',
  workspaceId: '33333333-3333-4333-8333-333333333333',
  name: 'Weather API',
};
const run = {
  workflow: 'ci.yml',
  runId: 42,
  runUrl: 'https://github.com/o/r/actions/runs/42',
  branch: 'main',
  trigger: 'push',
};

describe('a failed workflow run', () => {
  it('is reported once, whatever GitHub delivers again', () => {
    const events = decideWorkflowRuns({ type: 'ReportFailedRun', project, run }, initialWorkflowRuns(), now);
    expect(events).toEqual([
      {
        type: 'WorkflowRunFailed',
        data: {
          projectId: project.id,
          workspaceId: project.workspaceId,
          userId: project.userId,
          projectName: 'Weather API',
          ...run,
          at: now.toISOString(),
        },
      },
    ]);
    const after = events.reduce(evolveWorkflowRuns, initialWorkflowRuns());
    expect(decideWorkflowRuns({ type: 'ReportFailedRun', project, run }, after, now)).toEqual([]);
    expect(
      decideWorkflowRuns({ type: 'ReportFailedRun', project, run: { ...run, runId: 43 } }, after, now),
    ).toHaveLength(1);
  });
});
