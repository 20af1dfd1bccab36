import type { SessionView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { LogOut, Monitor, Smartphone, Tablet, Tv } from 'lucide-react';
import { useState } from 'react';
import { formatDate } from '../../lib/format';
import { formatTimeAgo } from '../../lib/time-ago';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { Skeleton } from '../../ui/skeleton';
import { describeSession, sessionsQuery, useEndOtherSessions, useEndSession } from './use-sessions';

const deviceIcons = { desktop: Monitor, mobile: Smartphone, tablet: Tablet, tv: Tv, unknown: Monitor } as const;

/**
 * Settings › Sessions: every browser and device signed in to the account, where it signed in from and
 * when it was last used; any other one can be signed out, or all of them at once.
 */
export function SessionsCard() {
  const { data: sessions, isPending, error } = useQuery(sessionsQuery);
  const [ending, setEnding] = useState<SessionView | 'others' | null>(null);
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const others = sessions?.filter((s) => !s.current) ?? [];
  const pending = endOne.isPending || endOthers.isPending;

  const confirm = () => {
    if (ending === 'others') endOthers.mutate(undefined, { onSuccess: () => setEnding(null) });
    else if (ending) endOne.mutate(ending, { onSuccess: () => setEnding(null) });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
        <CardDescription>
          Where your account is signed in. If you do not recognise one, sign it out and change your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Could not load your sessions: {error.message}</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Your sessions">
            {sessions.map((session) => {
              const Icon = deviceIcons[session.deviceType];
              return (
                <li key={session.id} className="flex items-center justify-between gap-3 p-3">
                  <div className="flex min-w-0 items-center gap-3">
                    <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden />
                    <div className="min-w-0">
                      <p className="truncate text-sm font-medium">
                        {describeSession(session)}
                        {session.current ? (
                          <span className="ml-2 rounded-full bg-primary px-1.5 text-[10px] font-bold text-primary-foreground">
                            This device
                          </span>
                        ) : null}
                      </p>
                      <p className="text-xs text-muted-foreground">
                        {session.ipAddress ? `${session.ipAddress} · ` : ''}Signed in{' '}
                        {formatDate(session.signedInAt, 'MMM d, yyyy h:mm a')} ·{' '}
                        {session.current ? 'Active now' : `Last active ${formatTimeAgo(session.lastSeenAt)}`}
                      </p>
                    </div>
                  </div>
                  {session.current ? null : (
                    <Button
                      variant="outline"
                      size="sm"
                      aria-label={`Sign out ${describeSession(session)}`}
                      onClick={() => setEnding(session)}
                    >
                      Sign out
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {others.length > 0 ? (
          <Button variant="outline" onClick={() => setEnding('others')}>
            <LogOut /> Sign out all other sessions
          </Button>
        ) : null}
        <ConfirmDialog
          open={ending !== null}
          onOpenChange={(open) => {
            if (!open) setEnding(null);
          }}
          title={ending === 'others' ? 'Sign out all other sessions?' : 'Sign out this session?'}
          description={
            ending === 'others'
              ? `${others.length === 1 ? 'The other session' : `All ${others.length} other sessions`} will be signed out at once. This one stays signed in.`
              : `${ending ? describeSession(ending) : ''} will be signed out at once.`
          }
          confirmLabel={pending ? 'Signing out...' : 'Sign out'}
          pending={pending}
          onConfirm={confirm}
        />
      </CardContent>
    </Card>
  );
}
