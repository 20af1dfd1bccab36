import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

const secret = 'a-secret-of-at-least-thirty-two-characters';

describe('SecretBox', () => {
  it('seals a value that only the same secret, purpose and context open', () => {
    const box = new SecretBox(secret, 'integration-api-key');
    const sealed = box.seal('integration-1', 'sk_live_abcdef123456');
    expect(sealed).not.toContain('sk_live');
    expect(box.seal('integration-1', 'sk_live_abcdef123456')).not.toBe(sealed);
    expect(box.open('integration-1', sealed)).toBe('sk_live_abcdef123456');
    // Moved to another record, opened with another secret or for another purpose, or tampered with: nothing.
    expect(box.open('integration-2', sealed)).toBeNull();
    expect(new SecretBox(`${secret}-other`, 'integration-api-key').open('integration-1', sealed)).toBeNull();
    expect(new SecretBox(secret, 'another-purpose').open('integration-1', sealed)).toBeNull();
    const tampered = `${sealed.slice(0, -4)}${sealed.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expect(box.open('integration-1', tampered)).toBeNull();
    expect(box.open('integration-1', 'not sealed')).toBeNull();
  });

  it('refuses a short secret', () => {
    expect(() => new SecretBox('short', 'integration-api-key')).toThrow(/at least 32 characters/);
  });
});
