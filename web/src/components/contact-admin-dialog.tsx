import { contactAdminSchema } from '@shiplog/schemas';
import { useState } from 'react';
import { useContactAdmin } from '../hooks/use-account';
import { ContactAdminButton } from './admin-messages';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';
import { Input, Label } from './ui/input';
import { Textarea } from './ui/textarea';
import { toast } from './ui/toast';

/** Contact Admin: Send Message stays disabled until both fields have text, and while sending. */
export function ContactAdminDialog({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
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
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={<ContactAdminButton />}
      title="Contact Admin"
      description="Send a message to the administrators."
    >
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
    </Dialog>
  );
}
