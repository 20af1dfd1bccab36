import type { ErrorComponentProps } from '@tanstack/react-router';
import { AlertTriangle } from 'lucide-react';
import { useEffect } from 'react';
import { useOnline } from '../lib/online';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';

/** A page's code that could not be downloaded (Chromium, Firefox and Safari word it so). */
const CODE_NOT_LOADED = /dynamically imported module|Importing a module script failed/i;
/** The longest wait between two tries at fetching a page's code. */
const LONGEST_WAIT_MS = 30_000;

/**
 * What a page shows when it fails to render: the reason, and a way out. A page whose code did not
 * download says so (offline: that it is not available offline; the dashboard, My Projects and
 * Reminders open offline), offers Go back and the dashboard, and opens by itself once its code can
 * be fetched.
 */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const message = error instanceof Error ? error.message : String(error);
  const notLoaded = CODE_NOT_LOADED.test(message);
  useEffect(() => (notLoaded ? reloadOnceFetchable(moduleUrl(message)) : undefined), [notLoaded, message]);
  const online = useOnline();
  const offline = notLoaded && !online;
  return (
    <main className="flex min-h-[60vh] items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6">
          <div className="flex items-center gap-2">
            <AlertTriangle className="size-6 text-destructive" aria-hidden />
            <h1 className="text-xl font-semibold">
              {offline
                ? 'This page is not available offline'
                : notLoaded
                  ? 'This page could not be loaded'
                  : 'Something went wrong'}
            </h1>
          </div>
          <p className="text-sm text-muted-foreground">
            {offline
              ? 'It opens once you are back online. The dashboard, My Projects and Reminders can be read offline.'
              : notLoaded
                ? 'Its code did not download. It opens by itself as soon as it can.'
                : message}
          </p>
          <div className="flex flex-wrap gap-2">
            {notLoaded ? (
              <Button onClick={() => history.back()}>Go back</Button>
            ) : (
              <Button onClick={reset}>Try again</Button>
            )}
            <Button variant="outline" asChild>
              <a href="/">Go to Dashboard</a>
            </Button>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}

/** The address of the module that did not download, where the browser names it (Chromium, Firefox). */
function moduleUrl(message: string): string | null {
  const url = message.match(/https?:\/\/\S+/)?.[0];
  return url && new URL(url).origin === location.origin ? url : null;
}

/** Reloads this page makes for code it lacked, at most this many a minute: then it waits for the user. */
const MOST_RELOADS = 3;
const RELOADS_KEY = 'shiplog-code-reloads';

/**
 * Reloads the page once the server answers for the module it lacks (the router keeps a part that
 * failed to load as failed, so only a reload brings it): tried when the browser says it is online,
 * then again after waits that double up to 30 s. Being online is not enough: the connection can come
 * back before the service worker's does, or before the server answers, and a reload then would fail
 * again. An answer that the file is not there also reloads: the page is from an earlier release, and
 * the reload brings the current one. Returns what stops it.
 */
function reloadOnceFetchable(url: string | null): () => void {
  let stopped = false;
  let trying = false;
  let wait = 1_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = async () => {
    clearTimeout(timer);
    if (stopped || trying) return;
    trying = true;
    const answered = navigator.onLine && (await answers(url));
    trying = false;
    if (stopped) return;
    // Reloaded, or reloaded too often already (the server answers and the code still does not load:
    // a broken release): the page stays, with its way back.
    if (answered) {
      if (mayReload()) location.reload();
      return;
    }
    timer = setTimeout(attempt, wait);
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  };
  const online = () => {
    wait = 1_000;
    void attempt();
  };
  addEventListener('online', online);
  // Online already (the code failed to download all the same): tried at once.
  void attempt();
  return () => {
    stopped = true;
    clearTimeout(timer);
    removeEventListener('online', online);
  };
}

/**
 * Whether the server answers, within 10 s, for the module (through the service worker, which keeps the
 * file it fetches: the reload then finds it) or, where the browser does not name it (Safari), for this page.
 */
async function answers(url: string | null): Promise<boolean> {
  try {
    const response = await fetch(url ?? location.href, { cache: 'no-store', signal: AbortSignal.timeout(10_000) });
    return response.status < 500;
  } catch {
    return false;
  }
}

/** Counts a reload about to be made: false once this tab has made MOST_RELOADS of them within a minute. */
function mayReload(): boolean {
  const now = Date.now();
  let recent: number[] = [];
  try {
    const kept: unknown = JSON.parse(sessionStorage.getItem(RELOADS_KEY) ?? '[]');
    if (Array.isArray(kept)) recent = kept.filter((at): at is number => typeof at === 'number' && now - at < 60_000);
  } catch {}
  if (recent.length >= MOST_RELOADS) return false;
  try {
    sessionStorage.setItem(RELOADS_KEY, JSON.stringify([...recent, now]));
  } catch {}
  return true;
}
