import { Link } from '@tanstack/react-router';
import { Code2, LogOut, User } from 'lucide-react';
import { type ComponentProps, Suspense } from 'react';
import { useLogout } from '../features/account/use-auth';
import { ContactAdmin } from '../features/admin/contact-admin';
import { lazyPart, onDemand } from '../lib/on-demand';
import { Avatar } from '../ui/avatar';
import { Button } from '../ui/button';
import { Logo } from '../ui/logo';
import { navItems, type ShellUser } from './navigation';

// The administrators' messages come a moment after the shell: they are not part of a page's first load.
const AdminMessagesPanel = lazyPart(() => import('../features/admin/admin-messages'), 'AdminMessagesPanel');

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

/**
 * The sidebar: the pages, the administrators' messages and the account's links. Beside every page on a
 * desktop (app-shell.tsx), in the menu's sheet on a phone (mobile-menu.tsx).
 */
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
