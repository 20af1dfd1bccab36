import { describe, expect, it } from 'vitest';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';

describe('passwords (OWASP ASVS 2.4.1, 2.1.7)', () => {
  it('hashes with argon2id at m=19456 KiB, t=2, p=1 at least', async () => {
    const hash = await hashPassword('a long and unusual pass phrase');
    const [, algorithm, , params] = hash.split('$');
    expect(algorithm).toBe('argon2id');
    const cost = Object.fromEntries(
      params!
        .split(',')
        .map((p) => p.split('='))
        .map(([k, v]) => [k, Number(v)]),
    );
    expect(cost.m).toBeGreaterThanOrEqual(19_456);
    expect(cost.t).toBeGreaterThanOrEqual(2);
    expect(cost.p).toBeGreaterThanOrEqual(1);
    expect(await verifyPassword(hash, 'a long and unusual pass phrase')).toBe(true);
    expect(await verifyPassword(hash, 'a long and unusual pass phrasE')).toBe(false);
    expect(await verifyPassword(null, 'anything')).toBe(false);
  });

  it('knows the common passwords, whatever their case, and not an unusual one', () => {
    for (const common of ['123456', 'password', 'Password1', 'LETMEIN', 'iloveyou', 'secret1', 'qwerty123'])
      expect(isCommonPassword(common), common).toBe(true);
    for (const unusual of ['secret-pass-1', 'correct horse battery staple 42', 'shiplog-2026!'])
      expect(isCommonPassword(unusual), unusual).toBe(false);
  });
});
