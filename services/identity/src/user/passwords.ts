import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * argon2id at OWASP's recommended cost (ASVS 2.4.1): 19 MiB of memory, two passes, one lane. Written
 * out rather than left to the library's defaults, so that a new version of it cannot lower them.
 */
export const argon2Options = {
  // `Algorithm.Argon2id`: the library's enum is const, out of reach of isolated modules.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
}

// Verified against when the username is unknown, so a miss costs as long as a wrong password.
const decoy = hash('decoy password that matches nothing', argon2Options);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/**
 * The 49,000 most common passwords of the breach corpora zxcvbn-ts keeps (ASVS 2.1.7), offline; they
 * are all lower case, and so is the comparison: `Password1` is as common as `password1`.
 */
const common = new Set<string>(dictionary['passwords-common'] as string[]);

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less common one.';

export function isCommonPassword(password: string): boolean {
  return common.has(password.toLowerCase());
}
