import { Mail } from 'lucide-react';
import type { ComponentProps } from 'react';
import { onDemand } from '../../lib/on-demand';
import { Button } from '../../ui/button';

/** The sidebar's Contact Admin button; its dialog (contact-admin-dialog.tsx) loads on first use. */
export function ContactAdminButton(props: ComponentProps<'button'>) {
  return (
    <Button variant="ghost" size="sm" className="w-full" {...props}>
      <Mail /> Contact Admin
    </Button>
  );
}

export const ContactAdmin = onDemand(
  // The dialog's Radix part in parallel, not after the dialog's module.
  async () =>
    (await Promise.all([import('./contact-admin-dialog'), import('../../ui/dialog-panels')]))[0].ContactAdminDialog,
  ContactAdminButton,
);
