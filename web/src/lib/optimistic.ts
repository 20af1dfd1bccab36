import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { seqs } from './api';

const REMOVED = Symbol('removed');

/**
 * A change shown at once, before the server has it: every cached copy of the item `id` under
 * `prefixes` (a project on its page, in the lists and on the dashboard; a reminder in the lists, the
 * bell and the dashboard) becomes what `change` makes of it, or leaves its list when `change` answers
 * null. Queries on their way are cancelled first, so an older answer cannot overwrite it. Answers what
 * puts every copy back, for when the server refuses; the mutation then refetches either way.
 */
export async function changeEverywhere<T extends { id: string }>(
  queryClient: QueryClient,
  prefixes: QueryKey[],
  id: string,
  change: (item: T) => T | null,
): Promise<() => void> {
  await Promise.all(prefixes.map((queryKey) => queryClient.cancelQueries({ queryKey })));
  const before = prefixes.flatMap((queryKey) => queryClient.getQueriesData({ queryKey }));
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const out = value.map(walk);
      return out.some((item, i) => item !== value[i]) ? out.filter((item) => item !== REMOVED) : value;
    }
    if (!value || typeof value !== 'object') return value;
    if ((value as { id?: unknown }).id === id) return change(value as T) ?? REMOVED;
    // An answer that holds lists (the dashboard's): the lists are walked, the rest kept.
    let copy: Record<string, unknown> | undefined;
    for (const [key, field] of Object.entries(value)) {
      if (!Array.isArray(field)) continue;
      const next = walk(field);
      if (next === field) continue;
      copy ??= { ...value };
      copy[key] = next;
    }
    return copy ?? value;
  };
  for (const [queryKey, data] of before) {
    const next = walk(data);
    if (next === data || next === REMOVED) continue;
    // Where the answer stood in the live feed stays with its copy (lib/live.ts resumes from it).
    const seq = data && typeof data === 'object' ? seqs.get(data) : undefined;
    if (seq && next && typeof next === 'object') seqs.set(next, seq);
    queryClient.setQueryData(queryKey, next);
  }
  return () => {
    for (const [queryKey, data] of before) queryClient.setQueryData(queryKey, data);
  };
}
