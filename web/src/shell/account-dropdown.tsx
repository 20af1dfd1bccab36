import { Link } from '@tanstack/react-router';
import { LogOut, Settings, User } from 'lucide-react';
import type { ComponentType } from 'react';
import { useLogout } from '../features/account/use-auth';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';

/** The header's account menu, loaded on first use (account-menu.tsx), which hands it its button as `Trigger`. */
export function AccountDropdown({
  username,
  defaultOpen,
  Trigger,
}: {
  username: string;
  defaultOpen?: boolean;
  Trigger: ComponentType<{ username: string }>;
}) {
  const logout = useLogout();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Trigger username={username} />
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
