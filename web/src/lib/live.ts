import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { seqs } from './api';
import { keys, liveFeed } from './queries';

/**
 * What each service's events change on screen, by query key prefix. A source not listed here (a service
 * added later) refreshes everything, so a change is never missed, only fetched more widely.
 */
const shownFrom: Record<string, readonly QueryKey[]> = {
  projects: [keys.projects, keys.activities, keys.reminders, keys.dashboard],
  reminders: [keys.reminders, keys.activities, keys.dashboard],
  identity: [
    keys.user,
    keys.profile,
    keys.notificationSettings,
    keys.activities,
    keys.adminComments,
    keys.workspaces,
    keys.invites,
  ],
  billing: [keys.subscription, keys.user],
  chat: [keys.chatUsage],
  integrations: [keys.integrations],
  monitors: [keys.monitors, keys.activities, keys.dashboard],
};

/** Where a query's data stands in the live feed, when its answer said (a paged query: its oldest page). */
function seqOf(data: unknown): number | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const pages = (data as { pages?: unknown }).pages;
  if (!Array.isArray(pages)) return seqs.get(data);
  let oldest: number | undefined;
  for (const page of pages) {
    const seq = seqOf(page);
    if (seq === undefined) return undefined;
    oldest = Math.min(oldest ?? seq, seq);
  }
  return oldest;
}

/** Whether a query's data may lack a change at `seq`: read before it, or not known when. */
const olderThan = (seq: number) => (query: Query) => !((seqOf(query.state.data) ?? 0) >= seq);

/**
 * Live updates: the gateway's event stream says which of the user's data changed — in another tab,
 * from the CLI or a deploy webhook, by the reminder scheduler — and the screens showing it fetch it
 * again. Events that arrive together (a deployment and the checklist tick it made) refresh once; data
 * read after a change (each answer says where it stands, lib/api.ts) is not fetched again for it.
 * The stream starts after the oldest data the app holds, so what changed between that read and the
 * stream's start comes first, and nothing is fetched twice. The browser's EventSource reconnects by
 * itself and resumes after the last event it had; a `reset` (too much missed) refreshes everything.
 * Answers the function that stops it.
 */
export function followLiveChanges(queryClient: QueryClient): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  // Data still on its way says where it stands only when it lands: the stream opens once it has, so
  // it starts after that too (a stream opened before would start later than data read before it).
  const unwatch = whenSettled(queryClient, () => {
    if (!stopped) stop = openStream(queryClient);
  });
  return () => {
    stopped = true;
    unwatch();
    stop?.();
  };
}

/** Calls `then` once no query is being fetched (at once when none is). Answers the function that stops waiting. */
function whenSettled(queryClient: QueryClient, then: () => void): () => void {
  if (queryClient.isFetching() === 0) {
    then();
    return () => {};
  }
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (queryClient.isFetching() > 0) return;
    unsubscribe();
    then();
  });
  return unsubscribe;
}

function openStream(queryClient: QueryClient): () => void {
  let after: number | undefined;
  /** Queries whose data does not say where it stands: fetched again with the first refresh. */
  const unplaced: QueryKey[] = [];
  for (const query of queryClient.getQueryCache().getAll()) {
    const seq = seqOf(query.state.data);
    if (seq !== undefined) after = Math.min(after ?? seq, seq);
    else if (query.state.data !== undefined) unplaced.push(query.queryKey);
  }
  const events = new EventSource(after === undefined ? '/api/events' : `/api/events?after=${after}`);
  /** The latest change of each source since the last refresh. */
  const changed = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    timer = undefined;
    // A change shown before the server has it (its mutation's context is the function that puts it
    // back, lib/optimistic.ts) would be undone by an answer read before it is saved, or before an
    // Undo's time is up: refresh once none is on its way. Each one's own end refreshes what it shows.
    if (queryClient.isMutating({ predicate: (mutation) => typeof mutation.state.context === 'function' }) > 0) {
      timer = setTimeout(refresh, 100);
      return;
    }
    for (const queryKey of unplaced.splice(0)) void queryClient.invalidateQueries({ queryKey });
    /** Each key to refresh (by its text), with the latest change it shows. */
    const latest = new Map<string, { queryKey: QueryKey; seq: number }>();
    for (const [source, seq] of changed)
      for (const queryKey of shownFrom[source] ?? [[]]) {
        const held = latest.get(String(queryKey));
        latest.set(String(queryKey), { queryKey, seq: Math.max(held?.seq ?? 0, seq) });
      }
    changed.clear();
    for (const { queryKey, seq } of latest.values())
      void queryClient.invalidateQueries({ queryKey, predicate: olderThan(seq) });
  };
  events.addEventListener('change', (event) => {
    const change = JSON.parse((event as MessageEvent<string>).data) as { source: string; type: string };
    const { source } = change;
    for (const listener of liveFeed.listeners) listener(change);
    const seq = Number((event as MessageEvent<string>).lastEventId) || Number.MAX_SAFE_INTEGER;
    changed.set(source, Math.max(changed.get(source) ?? 0, seq));
    timer ??= setTimeout(refresh, 30);
  });
  if (unplaced.length > 0) timer = setTimeout(refresh, 0);
  // While the stream is open, the bell needs no polling of its own (lib/queries.ts).
  events.addEventListener('open', () => {
    liveFeed.open = true;
  });
  events.addEventListener('error', () => {
    liveFeed.open = false;
  });
  events.addEventListener('presence', (event) => {
    const { projectId } = JSON.parse((event as MessageEvent<string>).data) as { projectId: string };
    for (const listener of liveFeed.presence) listener(projectId);
  });
  events.addEventListener('reset', () => {
    changed.set('*', Number.MAX_SAFE_INTEGER);
    timer ??= setTimeout(refresh, 0);
  });
  return () => {
    liveFeed.open = false;
    events.close();
    clearTimeout(timer);
  };
}
