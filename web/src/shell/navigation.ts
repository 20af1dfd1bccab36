import {
  Bot,
  CreditCard,
  FolderKanban,
  LayoutDashboard,
  Plug,
  PlusCircle,
  Settings,
  Shield,
  Users,
} from 'lucide-react';
import type { ComponentType } from 'react';

interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ className?: string }>;
  desktopOnly?: boolean;
  adminOnly?: boolean;
}

/**
 * The pages the sidebar lists (sidebar.tsx), which the command palette offers too
 * (command-palette.tsx): some only on a desktop, some only to administrators.
 */
export const navItems: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: LayoutDashboard },
  { label: 'My Projects', to: '/projects', icon: FolderKanban },
  { label: 'New Project', to: '/new-project', icon: PlusCircle },
  { label: 'Team workspaces', to: '/workspaces', icon: Users },
  { label: 'External API', to: '/integrations', icon: Plug },
  { label: 'Subscription', to: '/subscription', icon: CreditCard, desktopOnly: true },
  { label: 'Settings', to: '/settings', icon: Settings },
  { label: 'AI Chat', to: '/chat', icon: Bot },
  { label: 'Admin Dashboard', to: '/admin', icon: Shield, adminOnly: true },
];

export type ShellUser = { username: string; email: string | null; isAdmin: boolean };
