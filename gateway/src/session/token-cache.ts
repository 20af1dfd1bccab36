import { createHash } from 'node:crypto';
import type { TokenGrant } from '@shiplog/service-kit';
import type { SessionUser } from './session-cache.ts';

/** Whose a personal API token is, and what it may do, as identity's check answered. */
export interface VerifiedToken {
  tokenId: string;
  name: string;
  scope: 'read' | 'write';
  /** The one space it reaches (a workspace's id, or `personal`); null: every space. */
  workspaceId: string | null;
  user: SessionUser;
}

/** What the token may do, as the services are told it (service-kit's `TokenGrant`). */
export const grantOf = (verified: VerifiedToken): TokenGrant => ({
  id: verified.tokenId,
  name: verified.name,
  scope: verified.scope,
  workspaceId: verified.workspaceId,
});

/**
 * Tokens identity has verified, so a CI job's run of calls costs one identity call, not one a call.
 * Kept by the token's SHA-256 (its text is never held), for `ttlMs` at most.
 *
 * A token's user forgets all their tokens here when anything may have ended one:
 * - this gateway passed on a change the user made with their session (a revocation is one) or ended
 *   the account (its own actions): forgotten before the answer leaves, so the next call is checked;
 * - every gateway hears identity's `ApiTokenRevoked`, `PasswordChanged` and `UserDeleted` on the bus
 *   (the live feed) within milliseconds.
 * The time to live bounds the rest: an expiry, or a revocation while the bus is unreachable. A check
 * that was on its way while its user was forgotten is not kept (`generation`): it may predate the end.
 */
export class TokenCache {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #tokens = new Map<string, { verified: VerifiedToken; until: number }>();
  /** Each user's cached tokens, by key: what `forgetUser` drops. */
  readonly #byUser = new Map<string, Set<string>>();
  #generation = 0;

  constructor(options: { ttlMs: number; maxEntries: number; now?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Changes whenever a user is forgotten: take it before a check, give it to `remember` after. */
  get generation(): number {
    return this.#generation;
  }

  /** The token's verified user while held; undefined: ask identity. */
  get(token: string): VerifiedToken | undefined {
    const key = keyOf(token);
    const held = this.#tokens.get(key);
    if (!held) return undefined;
    if (held.until > this.#now()) return held.verified;
    this.#drop(key, held.verified.user.id);
    return undefined;
  }

  remember(token: string, verified: VerifiedToken, generation: number): void {
    if (this.#ttlMs === 0 || generation !== this.#generation) return;
    if (this.#tokens.size >= this.#maxEntries) {
      const [oldest, { verified: old }] = this.#tokens.entries().next().value!;
      this.#drop(oldest, old.user.id);
    }
    const key = keyOf(token);
    this.#tokens.set(key, { verified, until: this.#now() + this.#ttlMs });
    const keys = this.#byUser.get(verified.user.id) ?? new Set<string>();
    keys.add(key);
    this.#byUser.set(verified.user.id, keys);
  }

  forgetUser(userId: string): void {
    this.#generation += 1;
    for (const key of this.#byUser.get(userId) ?? []) this.#tokens.delete(key);
    this.#byUser.delete(userId);
  }

  #drop(key: string, userId: string): void {
    this.#tokens.delete(key);
    const keys = this.#byUser.get(userId);
    keys?.delete(key);
    if (keys?.size === 0) this.#byUser.delete(userId);
  }
}

/** The identity events after which a user's cached tokens may no longer be good. */
export const tokenEndingEvents: ReadonlySet<string> = new Set(['ApiTokenRevoked', 'PasswordChanged', 'UserDeleted']);

const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
