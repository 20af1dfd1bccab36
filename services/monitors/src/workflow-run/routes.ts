import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** A project's failed GitHub Actions runs, reported by integrations (answered in `api.ts`). */
export const workflowRunRoutes = declareRoutes({
  'POST /projects/:projectId/workflow-failures': {
    summary: 'A GitHub Actions run of the project failed on its default branch: alerted once',
    access: 'user',
    project: 'member',
    internal: true,
    body: z.object({
      workflow: z.string().min(1).max(200),
      runId: z.number().int().positive(),
      runUrl: z.url().max(2000).nullable(),
      branch: z.string().min(1).max(255),
      trigger: z.string().min(1).max(100),
    }),
    answer: z.object({ alerted: z.boolean() }),
  },
});
