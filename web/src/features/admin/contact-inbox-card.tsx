import { useQuery } from '@tanstack/react-query';
import { cn } from '../../lib/class-names';
import { formatDate } from '../../lib/format';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { contactMessagesQuery, useMarkContactMessage } from './use-admin';

export function ContactInboxCard() {
  const messages = useQuery(contactMessagesQuery);
  const mark = useMarkContactMessage();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Messages from users</CardTitle>
        <CardDescription>What users sent with Contact Admin, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3" data-testid="contact-inbox">
        {messages.data?.length === 0 ? <p className="text-sm text-muted-foreground">No messages yet.</p> : null}
        {messages.data?.map((message) => (
          <article key={message.id} className={cn('space-y-1 rounded-lg border p-3', message.handled && 'opacity-60')}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-medium">{message.subject}</h3>
              <Button
                size="sm"
                variant="outline"
                disabled={mark.isPending}
                onClick={() => mark.mutate({ id: message.id, handled: !message.handled })}
              >
                {message.handled ? 'Mark as open' : 'Mark handled'}
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">
              From {message.username} · {formatDate(message.createdAt, 'MMM d, yyyy h:mm a')}
              {message.handled ? ' · Handled' : ''}
            </p>
            <p className="whitespace-pre-wrap text-sm">{message.message}</p>
          </article>
        ))}
      </CardContent>
    </Card>
  );
}
