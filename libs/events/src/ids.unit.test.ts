import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids.ts';

describe('newId', () => {
  it('is a UUIDv7: version 7, the RFC variant, the time in its first 48 bits', () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
    const id = newId(now);
    expect(isId(id)).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(now);
  });

  it('sorts by creation time, and never repeats', () => {
    const ids = [newId(1_000), newId(2_000), newId(1_500_000_000_000), newId(1_800_000_000_000)];
    expect([...ids].sort()).toEqual(ids);
    const many = new Set(Array.from({ length: 10_000 }, () => newId(42)));
    expect(many.size).toBe(10_000);
  });
});
