import { contactAdminSchema } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useState } from 'react';
import { useContactAdmin } from '../hooks/use-account';
import { cn } from '../lib/class-names';
import { adminCommentsQuery } from '../lib/queries';
import { Button } from './ui/button';
import { Dialog, DialogContent, DialogTrigger } from './ui/dialog';
import { Input, Label } from './ui/input';
import { Textarea } from './ui/select';
import { toast } from './ui/toast';

const priorityStyles: Record<string, string> = {
  urgent: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
  high: 'bg-orange-100 text-orange-700 dark:bg-orange-950 dark:text-orange-300',
};

/** The sidebar's messages from administrators (spec/core.md §2): three at most, hidden when there are none. */
export function AdminMessagesPanel() {
  const { data, isPending } = useQuery(adminCommentsQuery);
  if (isPending) return <p className="px-1 text-xs text-muted-foreground">Loading messages...</p>;
  if (!data || data.length === 0) return null;
  return (
    <section
      aria-label="Messages from the admin"
      className="space-y-2 rounded-lg border bg-accent/40 p-3"
      data-testid="admin-messages"
    >
      {data.slice(0, 3).map((comment) => (
        <article key={comment.id} className="space-y-1">
          {comment.priority !== 'normal' ? (
            <span
              className={cn(
                'inline-block rounded-full px-2 py-0.5 text-[10px] font-semibold uppercase',
                priorityStyles[comment.priority] ?? 'bg-blue-100 text-blue-700',
              )}
            >
              {comment.priority}
            </span>
          ) : null}
          <p className="line-clamp-3 text-xs">{comment.message}</p>
        </article>
      ))}
      {data.length > 3 ? <p className="text-xs text-muted-foreground">+{data.length - 3} more messages</p> : null}
    </section>
  );
}

/** Contact Admin: Send Message stays disabled until both fields have text, and while sending. */
export function ContactAdminDialog() {
  const [open, setOpen] = useState(false);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const send = useContactAdmin();
  const sendMessage = () =>
    send.mutate(
      { subject, message },
      {
        onSuccess: () => {
          toast({ title: 'Message sent', description: 'Your message has been sent to the admin successfully.' });
          setSubject('');
          setMessage('');
          setOpen(false);
        },
        onError: (error) =>
          toast({ title: 'Error', description: error.message || 'Failed to send message', variant: 'destructive' }),
      },
    );
  const ready = contactAdminSchema.safeParse({ subject, message }).success && !send.isPending;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="w-full">
          <Mail /> Contact Admin
        </Button>
      </DialogTrigger>
      <DialogContent title="Contact Admin" description="Send a message to the administrators.">
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (ready) sendMessage();
          }}
        >
          <div className="space-y-2">
            <Label htmlFor="contact-subject">Subject</Label>
            <Input id="contact-subject" value={subject} onChange={(e) => setSubject(e.target.value)} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="contact-message">Message</Label>
            <Textarea id="contact-message" rows={5} value={message} onChange={(e) => setMessage(e.target.value)} />
          </div>
          <Button type="submit" className="w-full" disabled={!ready}>
            {send.isPending ? 'Sending...' : 'Send Message'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
