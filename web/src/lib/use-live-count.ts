import { useEffect, useState } from 'react';
import { liveFeed } from './queries';

/**
 * How many events of `types` the live feed has brought since `counting` turned true: a long change's
 * progress, as the server makes it (each project an import brings is one `ProjectImported`). Zero
 * while not counting, and when the feed is not open (the change still completes; only its count is
 * unknown).
 */
export function useLiveCount(counting: boolean, types: readonly string[]): Record<string, number> {
  const [counts, setCounts] = useState<Record<string, number>>({});
  const key = types.join(',');
  useEffect(() => {
    setCounts({});
    if (!counting) return;
    const wanted = new Set(key.split(','));
    const listener = ({ type }: { type: string }) => {
      if (wanted.has(type)) setCounts((before) => ({ ...before, [type]: (before[type] ?? 0) + 1 }));
    };
    liveFeed.listeners.add(listener);
    return () => {
      liveFeed.listeners.delete(listener);
    };
  }, [counting, key]);
  return counts;
}
