import { clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { classVocabulary } from '../../scripts/class-vocabulary';
import { conflictTable, knownToTailwindMerge } from '../../scripts/generate-class-conflicts';
import { classGroups, groupOverrides } from './class-conflicts';
import { cn } from './class-names';

// The first two compare every pair of the app's classes (a few hundred thousand merges): seconds of
// work that a loaded CI machine can stretch past the default 5 s.
describe('cn', { timeout: 30_000 }, () => {
  const vocabulary = classVocabulary();

  it('has its table generated from the classes the app uses now (else run web/scripts/generate-class-conflicts.ts)', () => {
    const { groups, overrides } = conflictTable(vocabulary);
    expect(classGroups).toEqual(groups.map((group) => group.join(' ')));
    expect(groupOverrides).toEqual(overrides);
  });

  // A class written twice stays twice (tailwind-merge drops the copy of a class it knows): the same CSS.
  // A word tailwind-merge has no group for is kept beside anything: merged with another, both stay.
  it('merges every pair of the app’s different classes, in both orders, as tailwind-merge does', () => {
    const known = new Set(vocabulary.filter(knownToTailwindMerge));
    const differences: string[] = [];
    for (const a of vocabulary) {
      for (const b of vocabulary) {
        if (a === b) continue;
        const expected = known.has(a) && known.has(b) ? twMerge(a, b) : `${a} ${b}`;
        if (cn(a, b) !== expected) differences.push(`${a} ${b}: ${cn(a, b)} vs ${expected}`);
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
  });

  it('merges what the components write, conditional parts and caller overrides included', () => {
    const cases: [unknown[], string][] = [
      [['size-8 animate-spin text-primary', 'mx-auto my-8 size-6'], 'animate-spin text-primary mx-auto my-8 size-6'],
      [['p-6 pt-0', 'p-4'], 'p-4'],
      [['px-2 py-1', 'p-3'], 'p-3'],
      [['p-3', 'px-2'], 'p-3 px-2'],
      [['rounded-lg border p-3', false, undefined, 'opacity-60'], 'rounded-lg border p-3 opacity-60'],
      [['text-sm text-muted-foreground', 'text-xs text-destructive'], 'text-xs text-destructive'],
      [['  flex   items-center ', ['gap-2', { 'gap-3': true }]], 'flex items-center gap-3'],
    ];
    for (const [inputs, merged] of cases) {
      expect(cn(...(inputs as Parameters<typeof cn>))).toBe(merged);
      expect(cn(...(inputs as Parameters<typeof cn>))).toBe(twMerge(clsx(inputs as Parameters<typeof clsx>)));
    }
  });
});
