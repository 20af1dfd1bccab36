import { loadConfig } from '@shiplog/service-kit';
import { describe, expect, it } from 'vitest';
import { identityEnv } from './env.ts';

const load = (ADMIN_PASSWORD: string) => () => loadConfig(identityEnv, { NODE_ENV: 'test', ADMIN_PASSWORD });

describe('the administrator’s password at start-up', () => {
  it('is refused when short, common or an example’s, with a message naming the variable', () => {
    expect(load('short-pw')).toThrow(/ADMIN_PASSWORD: must be at least 12 characters/);
    expect(load('change-me')).toThrow(/ADMIN_PASSWORD/);
    expect(load('please-change-me-now')).toThrow(/ADMIN_PASSWORD: is an example value/);
    expect(load('password1234')).toThrow(/ADMIN_PASSWORD: is a common password/);
  });

  it('is taken when long and uncommon, and may be left unset (no administrator is made)', () => {
    expect(load('vq7-Tundra-lantern-42')().ADMIN_PASSWORD).toBe('vq7-Tundra-lantern-42');
    expect(loadConfig(identityEnv, { NODE_ENV: 'test' }).ADMIN_PASSWORD).toBeUndefined();
  });
});
