import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { SecretLinkCard } from '../../ui/secret-link';
import { calendarFeedQuery, useCreateCalendarFeed, useRevokeCalendarFeed } from './use-calendar-feed';

/** The private calendar link: calendar apps subscribe to it and show active reminders with alarms. */
export function CalendarFeedCard() {
  const { data } = useQuery(calendarFeedQuery);
  return (
    <SecretLinkCard
      title="Calendar feed"
      description="Subscribe from Google Calendar, Apple Calendar or Outlook to see your active reminders there, with alarms."
      state={data}
      make={useCreateCalendarFeed()}
      turnOff={useRevokeCalendarFeed()}
      status={{
        label: 'Calendar link',
        copyLabel: 'Copy calendar link',
        copied: 'Paste it into your calendar app.',
        keepPrivate: 'Keep this link private: anyone with it can see your reminders.',
      }}
      create={{ label: 'Create calendar link' }}
      renew={
        <>
          <RefreshCw /> New link
        </>
      }
      remove="Revoke"
    />
  );
}
