import { newId } from '@shiplog/events';
import { describe, expect, it } from 'vitest';
import { hashTokenText, newTokenText, parseTokenText, tokenTextMatches } from './api-token.ts';

describe('API token text', () => {
  it('names its user and token, and matches only its own hash', () => {
    const userId = newId();
    const tokenId = newId();
    const text = newTokenText(userId, tokenId);
    expect(text).toMatch(/^shiplog_[A-Za-z0-9_-]{86}$/);
    expect(parseTokenText(text)).toEqual({ userId, tokenId });
    expect(tokenTextMatches(text, hashTokenText(text))).toBe(true);
    const other = newTokenText(userId, tokenId);
    expect(other).not.toBe(text);
    expect(tokenTextMatches(other, hashTokenText(text))).toBe(false);
  });

  it('is not parsed from anything else', () => {
    const text = newTokenText(newId(), newId());
    for (const bad of ['', 'shiplog_', text.slice(0, -1), `${text}A`, text.replace('shiplog_', 'github_'), 'Bearer x'])
      expect(parseTokenText(bad)).toBeNull();
  });
});
