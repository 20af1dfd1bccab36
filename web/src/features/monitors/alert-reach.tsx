import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { profileQuery } from '../account/use-account';
import { alertChannelsQuery, alertEmailQuery } from './use-alert-channels';

/**
 * Whether a monitor's alert reaches anyone: by email to a proven address from a server that sends
 * email, or to a channel. When neither holds, the cards that promise alerts say so, and how to fix it,
 * rather than promise an email nobody gets. Nothing shows while any of it is still loading.
 */
export function AlertReach({ where }: { where: 'monitors' | 'alerts' }) {
  const { data: profile } = useQuery(profileQuery);
  const { data: channels } = useQuery(alertChannelsQuery());
  const { data: email } = useQuery(alertEmailQuery);
  if (!profile || !channels || !email) return null;
  const emailed = email.sends && Boolean(profile.email && profile.emailVerified);
  if (emailed || channels.length > 0) return null;
  const addChannel = where === 'alerts' ? 'Add a channel below.' : 'Add a channel in Settings › Notifications.';
  if (!email.sends)
    return (
      <Notice>
        Nobody will be told when a monitor goes down: this Shiplog server sends no email (its operator has not set up a
        mail server), and no channel is set up. {addChannel}
      </Notice>
    );
  return (
    <Notice>
      Nobody will be told when a monitor goes down:{' '}
      {profile.email ? 'your email address is not proven yet' : 'your account has no email address'}, and no channel is
      set up. {profile.email ? 'Open the link we mailed you, or ' : 'Add an address in '}
      <Link to="/settings" className="underline underline-offset-2">
        Settings
      </Link>
      {where === 'alerts' ? ', or add a channel below.' : ', or add a channel in Settings › Notifications.'}
    </Notice>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      data-testid="alert-reach"
      className="flex items-start gap-2 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
      <span>{children}</span>
    </p>
  );
}
