import { describe, expect, it } from 'vitest';
import { keywordCause, publicCause } from './causes.ts';

describe('causes', () => {
  it('never shows a keyword on a public page, whatever it holds', () => {
    for (const keyword of ['secret-string', 'HTTP 503', '" missing', ''])
      for (const present of [true, false]) {
        const shown = publicCause(`${keywordCause(keyword, present)} after deploy 1.4.0`, present);
        expect(shown).toBe(present ? 'Expected content not found' : 'Unexpected content found');
      }
  });

  it('shows the checker’s own words as they are', () => {
    for (const cause of [
      'HTTP 503',
      'timed out',
      'HTTP 500 after deploy 1.4.0',
      'no backup since 2026-11-26 20:00 UTC',
    ])
      expect(publicCause(cause, true)).toBe(cause);
  });
});
