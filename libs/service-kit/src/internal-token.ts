import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The gateway's signed statement of who is calling, sent to services on every request. Services trust
 * no other identity source: a client can never reach a service with an identity the gateway did not
 * sign. HMAC-SHA256 over the claims, valid for a short time.
 */
export const INTERNAL_TOKEN_HEADER = 'x-shiplog-internal-token';

export interface Caller {
  userId: string | null;
  username: string | null;
  isAdmin: boolean;
  correlationId: string;
}

interface Claims {
  sub: string | null;
  usr: string | null;
  adm: boolean;
  cid: string;
  exp: number;
}

export function signInternalToken(secret: string, caller: Caller, ttlSeconds = 60): string {
  const claims: Claims = {
    sub: caller.userId,
    usr: caller.username,
    adm: caller.isAdmin,
    cid: caller.correlationId,
    exp: Math.floor(Date.now() / 1000) + ttlSeconds,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

export function verifyInternalToken(secret: string, token: string | undefined): Caller | null {
  if (!token) return null;
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
    userId: claims.sub ?? null,
    username: claims.usr ?? null,
    isAdmin: claims.adm === true,
    correlationId: claims.cid,
  };
}

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}
