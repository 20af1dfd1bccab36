import { deployHookSchema } from '@shiplog/schemas';
import { declareRoutes, madeSecretLink, secretLinkState } from '@shiplog/service-kit';
import { z } from 'zod';

/** A project's deploy webhook URL, and the deliveries made to it (answered in `api.ts`). */
export const deployHookRoutes = declareRoutes({
  'GET /projects/:id/deploy-hook': {
    tag: 'Projects',
    summary: 'Whether the project has a deploy webhook',
    access: 'user',
    project: 'viewer',
    answer: secretLinkState,
  },
  // The URL is a credential of its own: a session only, and a recent one to make it.
  'POST /projects/:id/deploy-hook': {
    tag: 'Projects',
    summary: 'Make (or replace) the project’s deploy webhook URL',
    access: 'user',
    project: 'member',
    recentAuth: true,
    status: 201,
    answer: madeSecretLink,
  },
  'DELETE /projects/:id/deploy-hook': {
    tag: 'Projects',
    summary: 'Turn the deploy webhook off',
    access: 'user',
    project: 'member',
    status: 204,
  },
  // Platforms post without a session: the secret in the path is the credential.
  'POST /hooks/deploy/:secret': {
    tag: 'Projects',
    summary: 'A deployment, posted by CI or a hosting platform',
    description:
      'The secret in the path is the credential. Takes the generic payload, or Vercel’s and Netlify’s own; a delivery repeated with the same `deploymentId` records nothing more.',
    access: 'public',
    limit: 'deployHook',
    body: deployHookSchema,
    status: 201,
    answer: z.union([
      z.looseObject({ recorded: z.literal(true), type: z.literal('deployment') }),
      z.object({ recorded: z.literal(false), reason: z.string() }),
    ]),
  },
});
