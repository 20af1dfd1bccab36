import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { dashboardChanged } from '../hooks/use-projects';

/**
 * What each service's events change on screen, by query key prefix. A source not listed here (a service
 * added later) refreshes everything, so a change is never missed, only fetched more widely.
 */
const shownFrom: Record<string, QueryKey[]> = {
  projects: [['projects'], ['activities'], ['reminders']],
  reminders: [['reminders'], ['activities']],
  identity: [['user'], ['profile'], ['notification-settings'], ['activities'], ['admin-comments']],
  billing: [['subscription'], ['user']],
  chat: [['chat-usage']],
  integrations: [['integrations']],
};

/**
 * Live updates: the gateway's event stream says which of the user's data changed — in
 * another tab, from the CLI or a deploy webhook, by the reminder scheduler — and the screens showing it
 * fetch it again. Events that arrive together (a deployment and the checklist tick it made) refresh
 * once. The screens are fetched again when the stream first opens, so nothing made while it was
 * starting is missed. The browser's EventSource reconnects by itself and resumes after the last event it had; a
 * `reset` (too much missed) refreshes everything. Answers the function that stops it.
 */
export function followLiveChanges(queryClient: QueryClient): () => void {
  const events = new EventSource('/api/events');
  const changed = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    timer = undefined;
    const sources = [...changed];
    changed.clear();
    if (sources.some((source) => !shownFrom[source])) void queryClient.invalidateQueries();
    else
      for (const key of new Set(sources.flatMap((s) => shownFrom[s]!)))
        void queryClient.invalidateQueries({ queryKey: key });
    dashboardChanged();
  };
  events.addEventListener('change', (event) => {
    const { source } = JSON.parse((event as MessageEvent<string>).data) as { source: string };
    changed.add(source);
    timer ??= setTimeout(refresh, 30);
  });
  const refreshAll = () => {
    changed.add('*');
    timer ??= setTimeout(refresh, 0);
  };
  events.addEventListener('reset', refreshAll);
  // What changed between the screen's fetch and the stream's start was announced to nobody: once the
  // stream is open (the gateway is listening), fetch what is shown again. A reconnect resumes by id.
  events.addEventListener('open', refreshAll, { once: true });
  return () => {
    events.close();
    clearTimeout(timer);
  };
}
