import { ForbiddenError } from '@shiplog/errors';
import { PERSONAL_SPACE, TOKEN_SCOPE_MESSAGE } from '@shiplog/schemas';
import type { Caller } from './internal-token.ts';

/**
 * What a personal API token may do, beyond the routes that take one (`RouteDeclaration.token`): one
 * policy, applied by the gateway before it forwards and again by the service from the signed caller.
 *
 * - `scope: 'read'`: reads only; any other method answers 403 `TOKEN_SCOPE` and changes nothing.
 * - `workspaceId`: the one space it reaches. A project elsewhere is one it cannot find (404), and the
 *   lists it reads hold that space's projects only (`tokenSpace`).
 */
const READ_METHODS = new Set(['GET', 'HEAD']);

export const tokenScopeRefused = (message = TOKEN_SCOPE_MESSAGE) => new ForbiddenError(message, 'TOKEN_SCOPE');

/** Refuses a write by a read-only token (a session, or a read, passes). */
export function refuseTokenWrite(caller: Pick<Caller, 'apiToken'>, method: string | undefined): void {
  if (caller.apiToken?.scope === 'read' && !READ_METHODS.has(method ?? 'GET')) throw tokenScopeRefused();
}

/**
 * The space the caller's reads are limited to: a workspace's id, or `personal`; null for a session
 * or a token of every space. A list query takes it as a parameter (`$n::text IS NULL OR …`).
 */
export const tokenSpace = (caller: Pick<Caller, 'apiToken'>): string | null => caller.apiToken?.workspaceId ?? null;

/** Whether the caller may reach a project of this workspace (null: a personal project). */
export function tokenReaches(caller: Pick<Caller, 'apiToken'>, workspaceId: string | null): boolean {
  const space = tokenSpace(caller);
  if (space === null) return true;
  return space === PERSONAL_SPACE ? workspaceId === null : workspaceId === space;
}
