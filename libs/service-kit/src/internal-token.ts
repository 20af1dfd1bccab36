import { createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * The gateway's signed statement of who is calling, sent to services on every request. Services trust
 * no other identity source: a client can never reach a service with an identity the gateway did not
 * sign. HMAC-SHA256 over the claims, valid for a short time.
 */
export const INTERNAL_TOKEN_HEADER = 'x-shiplog-internal-token';
/** Not part of the signed identity: a per-request id for logs and event metadata. */
export const CORRELATION_HEADER = 'x-correlation-id';

export interface Caller {
  userId: string | null;
  username: string | null;
  isAdmin: boolean;
  /**
   * The client called with a personal API token rather than a session: which, and what it may do. A
   * service refuses such a call on a route that takes no token (`apiTokenAccepted`), a write with a
   * read-only token, and a project outside the token's space, whatever route the gateway matched
   * (`token-grants.ts`).
   */
  apiToken?: TokenGrant;
  /**
   * The session's user typed their password within the last ten minutes: a service makes a credential
   * (a token, a webhook or ping URL) or changes the account's address only then (`requireRecentAuth`).
   */
  recentAuth?: boolean;
  /**
   * The client's address, as the gateway saw it through the proxies it trusts: on a write only (a
   * team's change keeps it for the workspace's audit log, `CommandContext.address`).
   */
  address?: string;
  correlationId: string;
}

/** What a personal API token may do, as identity verified it (`POST /tokens/verify`). */
export interface TokenGrant {
  id: string;
  /** What its user named it: the timeline shows it beside them. */
  name: string;
  scope: 'read' | 'write';
  /** The one space it reaches: a workspace's id, or `personal`; null: every space its user reaches. */
  workspaceId: string | null;
}

interface Claims {
  sub: string | null;
  usr: string | null;
  adm: boolean;
  /** The token's id, name, scope and space. */
  tok?: [string, string, 'read' | 'write', string | null];
  rec?: true;
  /** The client's address (a write's). */
  ip?: string;
  exp: number;
}

export type Identity = Omit<Caller, 'correlationId'>;

export function signInternalToken(secret: string, caller: Identity, ttlSeconds = 60): string {
  const claims: Claims = {
    sub: caller.userId,
    usr: caller.username,
    adm: caller.isAdmin,
    ...(caller.apiToken
      ? {
          tok: [
            caller.apiToken.id,
            caller.apiToken.name,
            caller.apiToken.scope,
            caller.apiToken.workspaceId,
          ] as Claims['tok'],
        }
      : {}),
    ...(caller.recentAuth ? { rec: true as const } : {}),
    ...(caller.address ? { ip: caller.address } : {}),
    exp: Math.floor(Date.now() / 1000) + ttlSeconds,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** Verified tokens, kept until they expire: a user's requests reuse one token (see TokenSigner). */
const verified = new LRUCache<string, { identity: Identity; exp: number }>({ max: 10_000 });

export function verifyInternalToken(secret: string, token: string | undefined): Identity | null {
  if (!token) return null;
  const cached = verified.get(`${secret.length}:${token}`);
  if (cached) {
    if (cached.exp >= Date.now() / 1000) return cached.identity;
    verified.delete(`${secret.length}:${token}`);
  }
  const identity = verifyUncached(secret, token);
  if (identity) {
    verified.set(`${secret.length}:${token}`, { identity: identity.identity, exp: identity.exp });
  }
  return identity?.identity ?? null;
}

function verifyUncached(secret: string, token: string): { identity: Identity; exp: number } | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let claims: Claims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims.exp !== 'number' || claims.exp < Date.now() / 1000) return null;
  return {
    identity: {
      userId: claims.sub ?? null,
      username: claims.usr ?? null,
      isAdmin: claims.adm === true,
      ...(Array.isArray(claims.tok) ? { apiToken: grantOf(claims.tok) } : {}),
      recentAuth: claims.rec === true,
      ...(typeof claims.ip === 'string' ? { address: claims.ip } : {}),
    },
    exp: claims.exp,
  };
}

function grantOf([id, name, scope, workspaceId]: NonNullable<Claims['tok']>): TokenGrant {
  return { id, name, scope: scope === 'read' ? 'read' : 'write', workspaceId: workspaceId ?? null };
}

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** Signs once per identity and reuses the token for half its life. */
export class TokenSigner {
  readonly #secret: string;
  readonly #tokens = new LRUCache<string, { token: string; renewAt: number }>({ max: 10_000 });

  constructor(secret: string) {
    this.#secret = secret;
  }

  token(identity: Identity): string {
    const key = `${identity.userId}|${identity.username}|${identity.isAdmin}|${identity.apiToken?.id}|${identity.recentAuth}|${identity.address}`;
    const cached = this.#tokens.get(key);
    if (cached && cached.renewAt > Date.now()) return cached.token;
    const token = signInternalToken(this.#secret, identity, 60);
    this.#tokens.set(key, { token, renewAt: Date.now() + 30_000 });
    return token;
  }
}
