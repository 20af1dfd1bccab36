import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';

/**
 * One secret value sealed with a service's own secret (AES-256-GCM), bound to what it belongs to (the
 * `context`, e.g. an integration's id), so a sealed value cannot be moved to another record. A second
 * layer over the vault's per-user sealing, for values that even the other services, which share the
 * vault, must never read: the integrations service seals API keys with INTEGRATION_KEY_SECRET.
 */
export class SecretBox {
  readonly #key: KeyObject;
  readonly #purpose: string;

  constructor(secret: string, purpose: string) {
    if (secret.length < 32) throw new Error(`The secret for ${purpose} must be at least 32 characters`);
    this.#purpose = purpose;
    this.#key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'shiplog-secret-box', purpose, 32)));
  }

  /** `v1.` then base64 of IV, ciphertext and tag. */
  seal(context: string, value: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(this.#aad(context));
    const body = Buffer.concat([iv, cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${body.toString('base64')}`;
  }

  /** The value, or null when it cannot be opened: another secret sealed it, or it belongs elsewhere. */
  open(context: string, sealed: string): string | null {
    if (!sealed.startsWith('v1.')) return null;
    const body = Buffer.from(sealed.slice(3), 'base64');
    if (body.length < 12 + 16) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, body.subarray(0, 12));
      decipher.setAAD(this.#aad(context));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(12, body.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  #aad(context: string): Buffer {
    return Buffer.from(`${this.#purpose}:${context}`, 'utf8');
  }
}
