import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';

/**
 * Data keys at rest: each is stored wrapped (AES-256-GCM, bound to its subject) with a master key
 * derived from VAULT_KEY_SECRET; keys wrapped with a previous master key, or stored bare from before
 * wrapping, still open, and `Vault.rewrapKeys` brings them to the current one (rotation).
 */
export class KeyWrapping {
  readonly #wrapping: KeyObject;
  readonly #previous: KeyObject[];

  constructor(masterKey: string, previousMasterKeys: string[] = []) {
    this.#wrapping = wrappingKey(masterKey);
    this.#previous = previousMasterKeys.map(wrappingKey);
  }

  /** Whether keys wrapped with a previous master key may exist (a rotation is under way). */
  get rotating(): boolean {
    return this.#previous.length > 0;
  }

  /** A data key as stored: version 1, IV, the key encrypted with the master key (bound to its subject), tag. */
  wrap(subject: string, key: Buffer): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#wrapping, iv);
    cipher.setAAD(Buffer.from(`subject-key:${subject}`, 'utf8'));
    return Buffer.concat([Buffer.of(1), iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
  }

  /** The data key a stored one holds. */
  unwrap(subject: string, stored: Buffer): Buffer {
    return this.unwrapAny(subject, stored).key;
  }

  /**
   * The data key a stored one holds, and whether it is wrapped with the current master key (a bare
   * one, from before wrapping, is taken as is; one wrapped with a previous master key is opened with it).
   */
  unwrapAny(subject: string, stored: Buffer): { key: Buffer; current: boolean } {
    if (stored.length === BARE_KEY_LENGTH) return { key: stored, current: false };
    if (stored.length !== WRAPPED_KEY_LENGTH || stored[0] !== 1) {
      throw new Error(`The data key of ${subject} is in no format this vault knows`);
    }
    for (const [i, wrapping] of [this.#wrapping, ...this.#previous].entries()) {
      const decipher = createDecipheriv('aes-256-gcm', wrapping, stored.subarray(1, 13));
      decipher.setAAD(Buffer.from(`subject-key:${subject}`, 'utf8'));
      decipher.setAuthTag(stored.subarray(WRAPPED_KEY_LENGTH - 16));
      try {
        const key = Buffer.concat([decipher.update(stored.subarray(13, WRAPPED_KEY_LENGTH - 16)), decipher.final()]);
        return { key, current: i === 0 };
      } catch {
        // Not this master key: try the next.
      }
    }
    throw new Error(
      `The data key of ${subject} cannot be unwrapped: VAULT_KEY_SECRET is not the one it was wrapped with` +
        ' (while rotating, give the old one as VAULT_KEY_SECRET_PREVIOUS)',
    );
  }
}

/** The key that wraps data keys, from a master key secret (at least 32 characters). */
function wrappingKey(secret: string): KeyObject {
  if (secret.length < 32) throw new Error('A vault master key must be at least 32 characters');
  return createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'shiplog-vault', 'data-key-wrapping', 32)));
}

export const BARE_KEY_LENGTH = 32;
const WRAPPED_KEY_LENGTH = 1 + 12 + 32 + 16;
