import { useQuery } from '@tanstack/react-query';
import { MailCheck, MailWarning } from 'lucide-react';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { profileQuery, useSendVerificationEmail, useUpdateAccountInfo } from './use-account';

export function AccountInfoCard() {
  const { data: profile, isPending } = useQuery(profileQuery);
  const save = useUpdateAccountInfo();
  const form = useSchemaForm('accountInfoSchema', {
    values: { email: profile?.email ?? '', phoneNumber: profile?.phoneNumber ?? '' },
  });
  const submit = (values: FormOutput<'accountInfoSchema'>) => save.mutate(values);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account information</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
            <TextField
              id="account-email"
              label="Email"
              type="email"
              error={form.formState.errors.email?.message}
              {...form.register('email')}
            />
            {profile?.email ? <EmailVerificationStatus verified={profile.emailVerified === true} /> : null}
            <TextField
              id="account-phone"
              label="Phone number"
              type="tel"
              error={form.formState.errors.phoneNumber?.message}
              {...form.register('phoneNumber')}
            />
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

/** Whether reminders can be emailed to the address, and a new link when it is not proven yet. */
function EmailVerificationStatus({ verified }: { verified: boolean }) {
  const send = useSendVerificationEmail();
  if (verified)
    return (
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="email-status">
        <MailCheck className="size-4 text-primary" aria-hidden /> Verified: reminders are emailed to this address.
      </p>
    );
  return (
    <div className="space-y-2 rounded-lg border border-dashed p-3" data-testid="email-status">
      <p className="flex items-center gap-1.5 text-sm">
        <MailWarning className="size-4 text-destructive" aria-hidden /> Not verified yet
      </p>
      <p className="text-xs text-muted-foreground">
        Reminders are emailed only to an address you have confirmed is yours. Open the link we sent to it.
      </p>
      <Button type="button" variant="outline" size="sm" disabled={send.isPending} onClick={() => send.mutate()}>
        {send.isPending ? 'Sending...' : 'Send a new link'}
      </Button>
    </div>
  );
}
