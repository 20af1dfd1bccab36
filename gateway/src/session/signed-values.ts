import signature from 'cookie-signature';
import { LRUCache } from 'lru-cache';

/**
 * Values signed with `cookie-signature` (the library express-session uses), checked once each: the
 * HMAC of a value already seen is not computed again. Holds at most 10,000 values.
 */
export class SignedValues {
  readonly #secret: string;
  readonly #verified = new LRUCache<string, string>({ max: 10_000 });

  constructor(secret: string) {
    this.#secret = secret;
  }

  sign(value: string): string {
    return signature.sign(value, this.#secret);
  }

  /** The value `signed` carries, or undefined when its signature does not match. */
  open(signed: string): string | undefined {
    const known = this.#verified.get(signed);
    if (known !== undefined) return known;
    const value = signature.unsign(signed, this.#secret);
    if (value === false) return undefined;
    this.#verified.set(signed, value);
    return value;
  }
}
