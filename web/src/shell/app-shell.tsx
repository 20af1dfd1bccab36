import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Outlet, useMatches, useNavigate, useRouteContext, useRouter } from '@tanstack/react-router';
import { Menu, Search } from 'lucide-react';
import { type RefObject, type SetStateAction, Suspense, useEffect, useRef, useState } from 'react';
import { lazyPart, preloading } from '../lib/on-demand';
import { useOnline } from '../lib/online';
import { PageTitleProvider, useDocumentTitle, usePageTitleOverride } from '../lib/page-title';
import { optimistic, userQuery } from '../lib/queries';
import { Button } from '../ui/button';
import { preloadToaster } from '../ui/toast';
import { AccountMenu } from './account-menu';
import type { ShellUser } from './navigation';
import { NotificationsBell } from './notifications-bell';
import type { KeyboardPanel } from './shortcuts';
import { SidebarContents } from './sidebar';
import { ThemeMenu } from './theme-menu';

/** The mobile menu's sheet (Radix dialog) loads when the menu is first opened. */
const MobileMenu = lazyPart(() => import('./mobile-menu'), 'MobileMenu');
const preloadMobileMenu = preloading(MobileMenu);
/** The command palette and the shortcuts sheet: their code loads with the shortcuts, after the first screen. */
const KeyboardPanels = lazyPart(() => import('./command-palette'), 'KeyboardPanels');
const preloadKeyboardPanels = preloading(KeyboardPanels);

export function AppShell() {
  return (
    <PageTitleProvider>
      <Shell />
    </PageTitleProvider>
  );
}

function Shell() {
  // The guard's user, kept current by the same query (an email or name change shows at once).
  const { user: signedIn } = useRouteContext({ from: '/app' });
  const user = useQuery(userQuery).data ?? signedIn;
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const matches = useMatches();
  const override = usePageTitleOverride();
  const title = override ?? [...matches].reverse().find((m) => m.staticData?.title)?.staticData.title ?? 'Shiplog';
  useDocumentTitle(title);
  const showPanel = useRef<(next: SetStateAction<KeyboardPanel>) => void>(() => {});
  const [keysFollowed, setKeysFollowed] = useState(false);
  const online = useOnline();
  const router = useRouter();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useAfterFirstScreen(() => {
    return Promise.all([
      // Every screen follows the user's changes as they happen (lib/live.ts)…
      import('../lib/live').then(({ followLiveChanges }) => followLiveChanges(queryClient)),
      // …can open offline next time and show push reminders (lib/service-worker.ts)…
      import('../lib/service-worker').then(({ registerServiceWorker }) => {
        void registerServiceWorker(router, queryClient).catch(() => {});
        return () => {};
      }),
      // …and shows a change before the server has it (lib/optimistic.ts), and then its toast without
      // loading the toasts' code in the middle of the change.
      Promise.all([optimistic(), preloadToaster()]).then(() => () => {}),
    ]);
  }, [queryClient, router]);
  // It answers the keyboard (shortcuts.ts) from then too, or at once when a key was pressed before.
  // The palette's code comes with it: ⌘K then opens it at once, and what is typed straight after lands
  // in its field (and the service worker keeps it for offline).
  useKeyboard(() => {
    const show = (next: SetStateAction<KeyboardPanel>) => showPanel.current(next);
    return Promise.all([import('./shortcuts'), KeyboardPanels.preload?.()]).then(([{ followShortcuts }]) => {
      setKeysFollowed(true);
      return followShortcuts(show, (to) => navigate({ to }));
    });
  }, [navigate]);

  return (
    <div className="flex min-h-screen bg-background">
      {/* The sidebar's background spans the whole page; what is in it stays in view as the page scrolls. */}
      <aside
        data-testid="desktop-sidebar"
        className="hidden w-64 shrink-0 border-r bg-sidebar md:flex"
        aria-label="Main navigation"
      >
        <div className="sticky top-0 h-screen flex-1">
          <SidebarContents variant="desktop" user={user} />
        </div>
      </aside>

      {menuLoaded ? (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} user={user} />
        </Suspense>
      ) : null}

      <KeyboardPanelsHost show={showPanel} user={user} />

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur md:px-8">
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open menu"
            onPointerEnter={preloadMobileMenu}
            onFocus={preloadMobileMenu}
            onClick={() => {
              setMenuLoaded(true);
              setMenuOpen(true);
            }}
          >
            <Menu className="size-5" />
          </Button>
          <h1 className="truncate text-xl font-semibold tracking-tight">{title}</h1>
          <div className="ml-auto flex items-center gap-1">
            <Button
              variant="ghost"
              size="icon"
              aria-label="Command palette"
              // Said once the shortcuts are listened for.
              aria-keyshortcuts={keysFollowed ? 'Control+K Meta+K' : undefined}
              aria-haspopup="dialog"
              onPointerEnter={preloadKeyboardPanels}
              onFocus={preloadKeyboardPanels}
              onClick={() => showPanel.current('palette')}
            >
              <Search className="size-5" />
            </Button>
            <ThemeMenu />
            <NotificationsBell />
            <AccountMenu username={user.username} />
          </div>
        </header>
        {online ? null : (
          <p role="status" className="border-b bg-muted px-4 py-2 text-sm md:px-8">
            You are offline: this is what was last loaded, and changes cannot be saved until you are back.
          </p>
        )}
        <main className="flex-1 px-4 py-6 md:px-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/**
 * The palette and the shortcuts sheet, with what is open kept here rather than in the shell: opening
 * one re-renders it alone, not the sidebar, the header and the page. `show` is how the shell opens one.
 */
function KeyboardPanelsHost({
  show,
  user,
}: {
  show: RefObject<(next: SetStateAction<KeyboardPanel>) => void>;
  user: ShellUser;
}) {
  const [panel, setPanel] = useState<KeyboardPanel>(null);
  const [loaded, setLoaded] = useState(false);
  show.current = (next) => {
    setLoaded(true);
    setPanel(next);
  };
  return loaded ? (
    <Suspense fallback={null}>
      <KeyboardPanels open={panel} onOpenChange={setPanel} user={user} />
    </Suspense>
  ) : null;
}

/**
 * What the signed-in shell starts once its first screen is up (a second after it shows), not part of
 * what that screen needs: `start` loads and starts each part and resolves to what stops them. A
 * change in that second shows at the next one or the next visit. `sooner`, when given, is told how to
 * start at once (and answers what stops it telling).
 */
export function useAfterFirstScreen(
  start: () => Promise<(() => void)[]>,
  deps: unknown[],
  sooner?: (begin: () => void) => () => void,
) {
  useEffect(() => {
    let stops: (() => void)[] = [];
    let ended = false;
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      void start().then((begun) => {
        if (ended) for (const stop of begun) stop();
        else stops = begun;
      });
    };
    const timer = setTimeout(begin, 1000);
    const unhook = sooner?.(begin);
    return () => {
      ended = true;
      clearTimeout(timer);
      unhook?.();
      for (const stop of stops) stop();
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: `start` is re-made each render; `deps` say when it changes
  }, deps);
}

/**
 * The keyboard, started after the first screen as the other parts are, or as soon as a key has been
 * pressed: index.html keeps the keys pressed until then, and the shortcuts `start` follows answer them.
 */
function useKeyboard(start: () => Promise<() => void>, deps: unknown[]) {
  useAfterFirstScreen(
    () => start().then((stop) => [stop]),
    deps,
    (begin) => {
      const keys = window.__shiplogKeys;
      if (!keys) return () => {};
      keys.wake = begin;
      if (keys.queued.length > 0) begin();
      return () => {
        if (keys.wake === begin) keys.wake = null;
      };
    },
  );
}
