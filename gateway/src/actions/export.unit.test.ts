import { describe, expect, it } from 'vitest';
import { parts } from './export.ts';

describe('parts', () => {
  it('splits by count, and by size without ever leaving an item out', () => {
    expect(parts([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(parts([], 2)).toEqual([]);
    const items = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(200), 'd'];
    // Each string is its length plus two quotes of JSON.
    expect(parts(items, 10, 100).map((part) => part.map((s) => s[0]).join(''))).toEqual(['ab', 'c', 'd']);
  });
});
