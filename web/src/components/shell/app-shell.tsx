import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useMatches, useNavigate, useRouteContext, useRouter } from '@tanstack/react-router';
import {
  Bot,
  Code2,
  CreditCard,
  FolderKanban,
  LayoutDashboard,
  LogOut,
  Menu,
  Plug,
  PlusCircle,
  Search,
  Settings,
  Shield,
  User,
} from 'lucide-react';
import {
  type ComponentProps,
  type ComponentType,
  type RefObject,
  type SetStateAction,
  Suspense,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useLogout } from '../../hooks/use-auth';
import { lazyPart, onDemand, preloading } from '../../lib/on-demand';
import { PageTitleProvider, useDocumentTitle, usePageTitleOverride } from '../../lib/page-title';
import { optimistic, userQuery } from '../../lib/queries';
import type { KeyboardPanel } from '../command/command-palette';
import { ContactAdmin } from '../contact-admin';
import { Logo } from '../logo';
import { Button } from '../ui/button';
import { preloadToaster } from '../ui/toast';
import { AccountMenu } from './account-menu';
import { Avatar } from './avatar';
import { NotificationsBell } from './notifications-bell';
import { ThemeMenu } from './theme-menu';

interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ className?: string }>;
  desktopOnly?: boolean;
  adminOnly?: boolean;
}

export const navItems: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: LayoutDashboard },
  { label: 'My Projects', to: '/projects', icon: FolderKanban },
  { label: 'New Project', to: '/new-project', icon: PlusCircle },
  { label: 'External API', to: '/integrations', icon: Plug },
  { label: 'Subscription', to: '/subscription', icon: CreditCard, desktopOnly: true },
  { label: 'Settings', to: '/settings', icon: Settings },
  { label: 'AI Chat', to: '/chat', icon: Bot },
  { label: 'Admin Dashboard', to: '/admin', icon: Shield, adminOnly: true },
];

/** The mobile menu's sheet (Radix dialog) loads when the menu is first opened. */
const MobileMenu = lazyPart(() => import('./mobile-menu'), 'MobileMenu');
// The administrators' messages come a moment after the shell: they are not part of a page's first load.
const AdminMessagesPanel = lazyPart(() => import('../admin-messages'), 'AdminMessagesPanel');
const preloadMobileMenu = preloading(MobileMenu);
/** The command palette and the shortcuts sheet: their code loads with the shortcuts, after the first screen. */
const KeyboardPanels = lazyPart(() => import('../command/command-palette'), 'KeyboardPanels');
const preloadKeyboardPanels = preloading(KeyboardPanels);

export type ShellUser = { username: string; email: string | null; isAdmin: boolean };

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
  const online = useSyncExternalStore(followOnline, () => navigator.onLine);
  const router = useRouter();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useAfterFirstScreen(() => {
    return Promise.all([
      // Every screen follows the user's changes as they happen (lib/live.ts)…
      import('../../lib/live').then(({ followLiveChanges }) => followLiveChanges(queryClient)),
      // …can open offline next time and show push reminders (lib/service-worker.ts)…
      import('../../lib/service-worker').then(({ registerServiceWorker }) => {
        void registerServiceWorker(router, queryClient).catch(() => {});
        return () => {};
      }),
      // …and shows a change before the server has it (lib/optimistic.ts), and then its toast without
      // loading the toasts' code in the middle of the change.
      Promise.all([optimistic(), preloadToaster()]).then(() => () => {}),
    ]);
  }, [queryClient, router]);
  // It answers the keyboard (lib/shortcuts.ts) from then too, or at once when a key was pressed before.
  // The palette's code comes with it: ⌘K then opens it at once, and what is typed straight after lands
  // in its field (and the service worker keeps it for offline).
  useKeyboard(() => {
    const show = (next: SetStateAction<KeyboardPanel>) => showPanel.current(next);
    return Promise.all([import('../../lib/shortcuts'), KeyboardPanels.preload?.()]).then(([{ followShortcuts }]) => {
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

/** The disabled coding-platform entry; its 'Coming soon!' tooltip (replit-tooltip.tsx) loads when pointed at. */
export function ReplitEntry(props: ComponentProps<'span'>) {
  return (
    // A disabled button does not receive pointer events; the span carries the tooltip.
    <span
      className="flex cursor-not-allowed items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground/60"
      aria-disabled="true"
      {...props}
    >
      <Code2 className="size-4" />
      Replit
      <span className="ml-auto rounded-full bg-muted px-2 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-muted-foreground">
        Coming Soon
      </span>
    </span>
  );
}

const ReplitWithTooltip = onDemand(() => import('./replit-tooltip').then((m) => m.ReplitTooltip), ReplitEntry, {
  openOn: 'hover',
});

export function SidebarContents({
  variant,
  user,
  onNavigate,
}: {
  variant: 'desktop' | 'mobile';
  user: ShellUser;
  onNavigate?: () => void;
}) {
  const logout = useLogout();
  const items = navItems.filter(
    (item) => (!item.adminOnly || user.isAdmin) && (variant === 'desktop' || !item.desktopOnly),
  );
  return (
    // One column that scrolls as a whole when it is taller than the screen (a phone, the admin's
    // messages): the navigation stays first and in view, what follows it scrolls after.
    <div className="flex h-full flex-col overflow-y-auto">
      <div className="flex h-16 shrink-0 items-center border-b px-5">
        <Link to="/" onClick={onNavigate} aria-label="Shiplog home">
          <Logo />
        </Link>
      </div>
      <nav className="flex-1 space-y-1 p-3">
        {items.map((item) => (
          <Link
            key={item.to}
            to={item.to}
            onClick={onNavigate}
            activeOptions={{ exact: item.to === '/' }}
            className="flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground"
            activeProps={{ className: 'bg-accent text-accent-foreground', 'aria-current': 'page' }}
          >
            <item.icon className="size-4" />
            {item.label}
          </Link>
        ))}
        <ReplitWithTooltip />
      </nav>
      <div className="space-y-3 border-t p-4">
        <Suspense fallback={null}>
          <AdminMessagesPanel />
        </Suspense>
        <div className="flex items-center gap-3">
          <Avatar username={user.username} />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold" data-testid="sidebar-username">
              {user.username}
            </p>
            <p className="truncate text-xs text-muted-foreground">{user.email ?? 'No email added'}</p>
          </div>
        </div>
        <Button asChild variant="outline" size="sm" className="w-full">
          <Link to="/profile" onClick={onNavigate}>
            <User /> View Profile
          </Link>
        </Button>
        <ContactAdmin />
        <Button
          variant="ghost"
          size="sm"
          className="w-full"
          disabled={logout.isPending}
          onClick={() => {
            onNavigate?.();
            logout.mutate();
          }}
        >
          <LogOut /> Sign Out
        </Button>
      </div>
    </div>
  );
}

/** Whether the browser is online, as it changes (the offline banner). */
function followOnline(changed: () => void) {
  addEventListener('online', changed);
  addEventListener('offline', changed);
  return () => {
    removeEventListener('online', changed);
    removeEventListener('offline', changed);
  };
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
