import type { ComponentProps } from 'react';
import { onDemand } from '../lib/on-demand';
import { Avatar } from '../ui/avatar';
import { Button } from '../ui/button';

/** The header's avatar button; its menu (account-dropdown.tsx) loads on first use. */
export function AccountButton({ username, ...props }: { username: string } & ComponentProps<'button'>) {
  return (
    <Button variant="ghost" size="icon" className="rounded-full" {...props}>
      <Avatar username={username} className="size-8 text-xs" />
      <span className="sr-only">Account menu</span>
    </Button>
  );
}

export const AccountMenu = onDemand(() => import('./account-dropdown').then((m) => m.AccountDropdown), AccountButton);
