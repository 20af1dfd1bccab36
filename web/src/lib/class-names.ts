import { type ClassValue, clsx } from 'clsx';
import { classGroups, groupOverrides } from './class-conflicts';

/** Each class the app uses that conflicts with another, with its group (class-conflicts.ts). */
const groupOf = new Map<string, number>(
  classGroups.flatMap((group, index) => group.split(' ').map((name) => [name, index] as const)),
);

/**
 * Tailwind class names joined, later ones winning over conflicting earlier ones, as tailwind-merge
 * merges them: for the classes the app uses, by a table generated from tailwind-merge
 * (web/scripts/generate-class-conflicts.ts), which keeps its 8 KB out of every page (decision 023).
 */
export function cn(...inputs: ClassValue[]): string {
  const names = clsx(inputs).split(' ');
  const taken = new Set<number>();
  const kept: string[] = [];
  for (let i = names.length - 1; i >= 0; i--) {
    const name = names[i]!;
    if (!name) continue;
    const group = groupOf.get(name);
    if (group !== undefined) {
      if (taken.has(group)) continue;
      taken.add(group);
      for (const other of groupOverrides[group]!) taken.add(other);
    }
    kept.push(name);
  }
  return kept.reverse().join(' ');
}
