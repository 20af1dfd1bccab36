import { apiTokenSchema, apiTokenView } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';
import { publicUserView } from '../user/routes.ts';

/** Personal API tokens: managed with a session only; checked for the gateway (answered in `api.ts`). */
export const apiTokenRoutes = declareRoutes({
  'GET /tokens': { tag: 'Tokens', summary: 'The account’s API tokens', access: 'user', answer: z.array(apiTokenView) },
  // A token outlives the session that made it: only with the password typed lately.
  'POST /tokens': {
    tag: 'Tokens',
    summary: 'Make an API token',
    description: 'The token’s text is in this answer only. Send it as `Authorization: Bearer <token>`.',
    access: 'user',
    recentAuth: true,
    idempotent: true,
    body: apiTokenSchema,
    status: 201,
    answer: apiTokenView.extend({ token: z.string() }),
  },
  'DELETE /tokens/:tokenId': { tag: 'Tokens', summary: 'Revoke an API token', access: 'user', status: 204 },
  // The gateway's question for a request that carries a token (its text in the body's `token`).
  'POST /tokens/verify': {
    summary: 'Whose a personal API token is: its id and its user',
    access: 'public',
    internal: true,
    answer: z.object({ tokenId: z.string(), user: publicUserView }),
  },
});
