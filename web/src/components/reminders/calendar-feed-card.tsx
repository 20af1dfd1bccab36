import { useQuery } from '@tanstack/react-query';
import { RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useCreateCalendarFeed, useRevokeCalendarFeed } from '../../hooks/use-calendar-feed';
import { calendarFeedQuery } from '../../lib/queries';
import { SecretLinkStatus } from '../secret-link';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

/** The private calendar link: calendar apps subscribe to it and show active reminders with alarms. */
export function CalendarFeedCard() {
  const { data } = useQuery(calendarFeedQuery);
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const [made, setMade] = useState<string | null>(null);
  const createLink = () => create.mutate(undefined, { onSuccess: ({ url }) => setMade(url) });
  const revokeLink = () => revoke.mutate(undefined, { onSuccess: () => setMade(null) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Calendar feed</CardTitle>
        <CardDescription>
          Subscribe from Google Calendar, Apple Calendar or Outlook to see your active reminders there, with alarms.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {data?.active ? (
          <>
            <SecretLinkStatus
              made={made}
              state={data}
              label="Calendar link"
              copyLabel="Copy calendar link"
              copied="Paste it into your calendar app."
              keepPrivate="Keep this link private: anyone with it can see your reminders."
            />
            <div className="flex gap-2">
              <Button variant="outline" size="sm" disabled={create.isPending} onClick={createLink}>
                <RefreshCw /> New link
              </Button>
              <Button variant="ghost" size="sm" disabled={revoke.isPending} onClick={revokeLink}>
                <Trash2 /> Revoke
              </Button>
            </div>
          </>
        ) : (
          <Button disabled={create.isPending} onClick={createLink}>
            Create calendar link
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
