import { activityPageQuerySchema, activityView } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** The activity timeline (answered in `api.ts`). */
export const timelineRoutes = declareRoutes({
  'GET /activities': {
    tag: 'Timeline',
    summary: 'The timeline, newest first, a page at a time',
    description:
      'Every project the account reaches (its own and its workspaces’, whoever acted), and its own entries of no project. The total number of entries is in the `X-Total-Count` header.',
    access: 'user',
    token: true,
    query: activityPageQuerySchema,
    answer: z.array(activityView),
  },
  // For the user's export (gateway export.ts).
  'GET /activities/export': {
    summary: 'The user’s whole timeline, oldest first',
    access: 'user',
    internal: true,
    answer: z.array(activityView),
  },
  // For a public profile page (the gateway's, which shows it only while the profile is public).
  'GET /public/users/:userId/shipped': {
    summary: 'What each of a user’s projects shipped last: its latest deployment and release',
    access: 'public',
    internal: true,
    answer: z.array(
      z.object({
        projectId: z.string(),
        kind: z.enum(['deployment', 'release']),
        version: z.string().nullable(),
        environment: z.string().nullable(),
        at: z.string(),
      }),
    ),
  },
  // For a public project's changelog (the gateway's, which shows only a public project of a public profile).
  'GET /public/users/:userId/releases': {
    summary: 'The releases of a user’s projects, newest first: version, notes, changes',
    access: 'public',
    internal: true,
    answer: z.array(
      z.object({
        projectId: z.string(),
        version: z.string(),
        notes: z.string().nullable(),
        changes: z.array(z.string()),
        at: z.string(),
      }),
    ),
  },
  'GET /projects/:id/activities': {
    tag: 'Timeline',
    summary: 'One project’s timeline, newest first',
    access: 'user',
    project: 'viewer',
    token: true,
    answer: z.array(activityView),
  },
});
