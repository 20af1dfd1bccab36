import { type ComponentType, useState } from 'react';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Input, Label } from '../../ui/input';
import { Textarea } from '../../ui/textarea';
import { useContactAdmin } from '../account/use-account';

/**
 * Contact Admin: Send Message stays disabled until both fields have text (the server's schema, checked
 * as the user types), and while sending. Loaded on first use (contact-admin.tsx), which hands it its
 * button as `Trigger`.
 */
export function ContactAdminDialog({
  defaultOpen = false,
  Trigger,
}: {
  defaultOpen?: boolean;
  Trigger: ComponentType;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const form = useSchemaForm('contactAdminSchema', { mode: 'onChange', defaultValues: { subject: '', message: '' } });
  const send = useContactAdmin();
  const submit = (values: FormOutput<'contactAdminSchema'>) =>
    send.mutateAsync(values).then(() => {
      form.reset();
      setOpen(false);
    });
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Trigger />}
      title="Contact Admin"
      description="Send a message to the administrators."
    >
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
        <div className="space-y-2">
          <Label htmlFor="contact-subject">Subject</Label>
          <Input id="contact-subject" {...form.register('subject')} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-message">Message</Label>
          <Textarea id="contact-message" rows={5} {...form.register('message')} />
        </div>
        <Button
          type="submit"
          className="w-full"
          disabled={!form.formState.isValid || send.isPending || form.formState.isSubmitting}
        >
          {send.isPending ? 'Sending...' : 'Send Message'}
        </Button>
      </form>
    </Dialog>
  );
}
