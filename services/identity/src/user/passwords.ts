import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with its default, OWASP-recommended cost. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verified against when the username is unknown, so a miss costs as long as a wrong password.
const decoy = hash('decoy password that matches nothing');

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
