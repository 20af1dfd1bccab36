import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A personal API token's text: `shiplog_` and the base64url of its user's id, its own id and 32 random
 * bytes. The ids let one request find the token without an index (the user's stream holds it); only
 * the SHA-256 of the whole text is stored, so the store cannot give a token away.
 */
const PREFIX = 'shiplog_';

export const idBytes = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
export const idOf = (bytes: Buffer) => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export function newTokenText(userId: string, tokenId: string): string {
  return PREFIX + Buffer.concat([idBytes(userId), idBytes(tokenId), randomBytes(32)]).toString('base64url');
}

/** The user and token a text names, or null when it is not a token of ours. */
export function parseTokenText(text: string): { userId: string; tokenId: string } | null {
  if (!text.startsWith(PREFIX) || text.length !== PREFIX.length + 86) return null;
  const bytes = Buffer.from(text.slice(PREFIX.length), 'base64url');
  if (bytes.length !== 64) return null;
  return { userId: idOf(bytes.subarray(0, 16)), tokenId: idOf(bytes.subarray(16, 32)) };
}

export const hashTokenText = (text: string) => createHash('sha256').update(text).digest('hex');

/** Two hex digests compared in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export const tokenTextMatches = (text: string, storedHash: string): boolean =>
  sameDigest(hashTokenText(text), storedHash);
