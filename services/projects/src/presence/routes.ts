import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

const present = z.array(z.object({ userId: z.uuid(), username: z.string() }));

/** Who else has a project's page open (answered in `api.ts`): for its members, so two do not record one release twice. */
export const presenceRoutes = declareRoutes({
  'POST /projects/:id/presence': {
    tag: 'Projects',
    summary: 'Say the project’s page is open; answers who else has it open',
    description:
      'The web app sends it every 20 s while the page is shown. Answers the other members seen in the last 45 s.',
    access: 'user',
    project: 'viewer',
    answer: present,
  },
  'DELETE /projects/:id/presence': {
    tag: 'Projects',
    summary: 'Say the project’s page was left',
    access: 'user',
    project: 'viewer',
    status: 204,
  },
});
