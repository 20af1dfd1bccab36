import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useMatches, useRouteContext } from '@tanstack/react-router';
import {
  Bell,
  Bot,
  Code2,
  CreditCard,
  FolderKanban,
  LayoutDashboard,
  LogOut,
  Menu,
  Monitor,
  Moon,
  Plug,
  PlusCircle,
  Settings,
  Shield,
  Sun,
  User,
} from 'lucide-react';
import { type ComponentType, useState } from 'react';
import { useLogout } from '../hooks/use-auth';
import { PageTitleProvider, usePageTitleOverride } from '../lib/page-title';
import { bellRemindersQuery } from '../lib/queries';
import { activeByDueDate, relativeDueLabel } from '../lib/reminders';
import { type Theme, useTheme } from '../lib/theme';
import { cn, initials } from '../lib/utils';
import { AdminMessagesPanel, ContactAdminDialog } from './admin-messages';
import { Logo } from './logo';
import { Button } from './ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './ui/dropdown-menu';
import { Popover, PopoverContent, PopoverTrigger } from './ui/popover';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from './ui/sheet';
import { Tooltip, TooltipContent, TooltipTrigger } from './ui/tooltip';

interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ className?: string }>;
  desktopOnly?: boolean;
  adminOnly?: boolean;
}

const navItems: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: LayoutDashboard },
  { label: 'My Projects', to: '/projects', icon: FolderKanban },
  { label: 'New Project', to: '/new-project', icon: PlusCircle },
  { label: 'External API', to: '/integrations', icon: Plug },
  { label: 'Subscription', to: '/subscription', icon: CreditCard, desktopOnly: true },
  { label: 'Settings', to: '/settings', icon: Settings },
  { label: 'AI Chat', to: '/chat', icon: Bot },
  { label: 'Admin Dashboard', to: '/admin', icon: Shield, adminOnly: true },
];

export function AppShell() {
  return (
    <PageTitleProvider>
      <Shell />
    </PageTitleProvider>
  );
}

function Shell() {
  const { user } = useRouteContext({ from: '/app' });
  const [menuOpen, setMenuOpen] = useState(false);
  const matches = useMatches();
  const override = usePageTitleOverride();
  const title = override ?? [...matches].reverse().find((m) => m.staticData?.title)?.staticData.title ?? 'Shiplog';

  return (
    <div className="flex min-h-screen bg-background">
      <aside
        data-testid="desktop-sidebar"
        className="sticky top-0 hidden h-screen w-64 shrink-0 flex-col border-r bg-sidebar md:flex"
        aria-label="Main navigation"
      >
        <SidebarContents variant="desktop" user={user} />
      </aside>

      <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
        <SheetContent aria-label="Menu">
          <SheetTitle className="sr-only">Menu</SheetTitle>
          <SheetDescription className="sr-only">Navigate Shiplog</SheetDescription>
          <SidebarContents variant="mobile" user={user} onNavigate={() => setMenuOpen(false)} />
        </SheetContent>
      </Sheet>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur md:px-8">
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open menu"
            onClick={() => setMenuOpen(true)}
          >
            <Menu className="size-5" />
          </Button>
          <h1 className="truncate text-xl font-semibold tracking-tight">{title}</h1>
          <div className="ml-auto flex items-center gap-1">
            <ThemeMenu />
            <NotificationsBell />
            <AccountMenu username={user.username} />
          </div>
        </header>
        <main className="flex-1 px-4 py-6 md:px-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function SidebarContents({
  variant,
  user,
  onNavigate,
}: {
  variant: 'desktop' | 'mobile';
  user: { username: string; email: string | null; isAdmin: boolean };
  onNavigate?: () => void;
}) {
  const logout = useLogout();
  const items = navItems.filter(
    (item) => (!item.adminOnly || user.isAdmin) && (variant === 'desktop' || !item.desktopOnly),
  );
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 items-center border-b px-5">
        <Link to="/" onClick={onNavigate} aria-label="Shiplog home">
          <Logo />
        </Link>
      </div>
      <nav className="flex-1 space-y-1 overflow-y-auto p-3">
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
        <Tooltip>
          <TooltipTrigger asChild>
            {/* A disabled button does not receive pointer events; the span carries the tooltip. */}
            <span
              className="flex cursor-not-allowed items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground/60"
              aria-disabled="true"
            >
              <Code2 className="size-4" />
              Replit
              <span className="ml-auto rounded-full bg-muted px-2 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-muted-foreground">
                Coming Soon
              </span>
            </span>
          </TooltipTrigger>
          <TooltipContent side="right">Coming soon!</TooltipContent>
        </Tooltip>
      </nav>
      <div className="space-y-3 border-t p-4">
        <AdminMessagesPanel />
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
        <ContactAdminDialog />
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

export function Avatar({ username, className }: { username: string | null | undefined; className?: string }) {
  return (
    <span
      aria-hidden
      data-testid="avatar"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground',
        className,
      )}
    >
      {initials(username)}
    </span>
  );
}

const themes: { value: Theme; label: string; icon: ComponentType<{ className?: string }> }[] = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'system', label: 'System', icon: Monitor },
];

function ThemeMenu() {
  const { theme, setTheme } = useTheme();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Theme">
          <Sun className="size-5 dark:hidden" />
          <Moon className="hidden size-5 dark:block" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuRadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
          {themes.map((t) => (
            <DropdownMenuRadioItem key={t.value} value={t.value}>
              <t.icon /> {t.label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The bell: active reminders, refreshed every 60 s; a failure shows as an empty list (spec/core.md §2, §7). */
function NotificationsBell() {
  const { data } = useQuery(bellRemindersQuery);
  const active = activeByDueDate(data ?? []);
  const count = active.length;
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative">
          <Bell className="size-5" aria-hidden />
          {/* The name, with the exact count; the badge shows it (or 9+) to the eye. */}
          <span className="sr-only">{`Notifications (${count})`}</span>
          {count > 0 ? (
            <span
              data-testid="bell-count"
              aria-hidden
              className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-bold text-destructive-foreground"
            >
              {count > 9 ? '9+' : count}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-labelledby="notifications-title">
        <p id="notifications-title" className="font-semibold">
          Notifications
        </p>
        <p className="text-sm text-muted-foreground">You have {count} active reminders</p>
        {count === 0 ? (
          <p className="mt-4 text-center text-sm text-muted-foreground">No active reminders</p>
        ) : (
          <ul className="mt-3 space-y-1">
            {active.slice(0, 5).map((reminder) => (
              <li key={reminder.id}>
                <Link
                  to="/projects/$id"
                  params={{ id: reminder.projectId }}
                  className="block rounded-md px-2 py-1.5 hover:bg-accent"
                >
                  <span className="block text-sm font-medium">{reminder.title}</span>
                  <span className="block text-xs text-muted-foreground">Due: {relativeDueLabel(reminder.dueDate)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {count > 5 ? (
          <Button variant="link" asChild className="mt-2 w-full">
            {/* spec/core.md §2: the bell's link goes to /projects (the dashboard's goes to /reminders). */}
            <Link to="/projects">View all reminders</Link>
          </Button>
        ) : null}
      </PopoverContent>
    </Popover>
  );
}

function AccountMenu({ username }: { username: string }) {
  const logout = useLogout();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full">
          <Avatar username={username} className="size-8 text-xs" />
          <span className="sr-only">Account menu</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-48">
        <DropdownMenuLabel>My Account</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <User /> Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <Settings /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={logout.isPending} onSelect={() => logout.mutate()}>
          <LogOut /> Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
