import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { type ApiTokenView, PERSONAL_SPACE } from '@shiplog/schemas';
import { catchUp, createdId, notCaughtUp, requireUserId, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { IdentityEnv } from '../env.ts';
import { workspaceOf } from '../read-models/workspaces/index.ts';
import { workspaceNotFound } from '../workspace/decide.ts';
import type { Accounts, RegisteredUser } from './accounts.ts';
import { hashTokenText, newTokenText, parseTokenText, tokenTextMatches } from './api-token.ts';
import { apiTokenRoutes } from './routes.ts';
import type { ApiToken } from './user.ts';

/**
 * Personal API tokens: made, listed and revoked by their user; checked by the gateway for every
 * request that carries one. Kept on the user's stream (decision 024), as the SHA-256 of their text.
 */
export function apiTokensApi(context: ServiceContext<IdentityEnv>, accounts: Accounts) {
  const { currentUser, changeCurrentUser, loadUser, toPublic } = accounts;

  async function tokenViews(user: RegisteredUser): Promise<ApiTokenView[]> {
    const { rows } = await context.pool.query<{ token_id: string; last_used_at: Date }>(
      'SELECT token_id, last_used_at FROM identity.api_token_usage WHERE user_id = $1',
      [user.id],
    );
    const lastUsed = new Map(rows.map((row) => [row.token_id, row.last_used_at.toISOString()]));
    return user.apiTokens.map((token) => tokenView(token, lastUsed.get(token.id) ?? null)).reverse();
  }

  return serveRoutes(apiTokenRoutes, {
    // Personal API tokens: the gateway lets a token act as its user on the project routes.
    'GET /tokens': async (req, res) => {
      const user = await currentUser(req);
      res.json(await tokenViews(user));
    },

    // A token outlives the session that made it: only with the password typed lately.
    'POST /tokens': async (req, res, parsed) => {
      const { name, expiresInDays, scope, workspaceId } = parsed.body;
      const userId = requireUserId(req);
      // A token limited to a workspace is its member's, and a viewer's reads only: what it may do is
      // never more than what its user may do there.
      if (workspaceId !== null && workspaceId !== PERSONAL_SPACE) {
        const caughtUp = await catchUp(req);
        const workspace = await workspaceOf(context.pool, workspaceId, userId);
        if (!workspace) throw caughtUp ? workspaceNotFound() : notCaughtUp();
        if (workspace.role === 'viewer' && scope !== 'read')
          throw new ForbiddenError('A viewer can only make read-only tokens for this workspace.');
      }
      const { id: tokenId, idempotencyKey } = createdId(req, userId, 'api-token');
      const text = newTokenText(userId, tokenId);
      await changeCurrentUser(
        req,
        null,
        { type: 'CreateApiToken', tokenId, name, tokenHash: hashTokenText(text), expiresInDays, scope, workspaceId },
        idempotencyKey,
      );
      // Read back as stored: a repeat racing the first is answered by the store as the first append.
      const created = (await currentUser(req)).apiTokens.find((token) => token.id === tokenId);
      if (!created) throw new Error('the new token is not on the account');
      // The same request again (its Idempotency-Key): the token was made by the first, and its text,
      // kept only as a hash, cannot be given out a second time.
      if (created.tokenHash !== hashTokenText(text)) {
        throw new ConflictError(
          'This token was already made and its text shown once. Revoke it and make a new one if you did not keep it.',
          'API_TOKEN_ALREADY_MADE',
        );
      }
      // The only time the token's text is given out.
      res.status(201).json({ ...tokenView(created, null), token: text });
    },

    'DELETE /tokens/:tokenId': async (req, res) => {
      const tokenId = req.params.tokenId;
      if (!isId(tokenId)) throw new NotFoundError('API token not found', 'API_TOKEN_NOT_FOUND');
      await changeCurrentUser(req, null, { type: 'RevokeApiToken', tokenId });
      await context.pool.query('DELETE FROM identity.api_token_usage WHERE token_id = $1', [tokenId]);
      res.status(204).end();
    },

    // The gateway's question for a request that carries a token: whose is it? Read from the account's
    // stream, so a revocation or the account's deletion counts from the next request.
    'POST /tokens/verify': async (req, res) => {
      const text = typeof req.body?.token === 'string' ? req.body.token : '';
      const named = parseTokenText(text);
      const user = named ? await loadUser(named.userId) : null;
      const token = user?.apiTokens.find((t) => t.id === named?.tokenId);
      if (!user || !token || !tokenTextMatches(text, token.tokenHash))
        throw new UnauthorizedError('Invalid or revoked API token', 'INVALID_API_TOKEN');
      if (token.expiresAt !== null && Date.parse(token.expiresAt) <= context.now().getTime())
        throw new UnauthorizedError(
          `This API token expired on ${token.expiresAt.slice(0, 10)}: create a new one`,
          'INVALID_API_TOKEN',
        );
      await context.pool.query(
        `INSERT INTO identity.api_token_usage (token_id, user_id, last_used_at) VALUES ($1, $2, now())
         ON CONFLICT (token_id) DO UPDATE SET last_used_at = now()
         WHERE api_token_usage.last_used_at < now() - interval '1 minute'`,
        [token.id, user.id],
      );
      res.json({
        tokenId: token.id,
        name: token.name,
        scope: token.scope,
        workspaceId: token.workspaceId,
        user: toPublic(user),
      });
    },
  });
}

function tokenView(token: ApiToken, lastUsedAt: string | null): ApiTokenView {
  return {
    id: token.id,
    name: token.name,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt,
    scope: token.scope,
    workspaceId: token.workspaceId,
  };
}
