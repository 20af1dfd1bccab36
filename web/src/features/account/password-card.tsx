import { useState } from 'react';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { showServerFieldErrors } from '../../lib/server-errors';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { TextField } from '../../ui/text-field';
import { useChangePassword } from './use-account';

export function PasswordCard() {
  const [changed, setChanged] = useState(false);
  const form = useSchemaForm('changePasswordFormSchema', {
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const change = useChangePassword();
  const submit = (values: FormOutput<'changePasswordFormSchema'>) =>
    change.mutate(values, {
      onSuccess: () => {
        form.reset();
        setChanged(true);
      },
      onError: (error) => showServerFieldErrors(error, form.setError, ['currentPassword', 'newPassword']),
    });
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        {changed ? (
          <p className="text-sm">
            Your password has been changed.{' '}
            <Button variant="link" className="h-auto p-0" onClick={() => setChanged(false)}>
              Change again?
            </Button>
          </p>
        ) : (
          <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
            <TextField
              id="password-current"
              label="Current password"
              type="password"
              autoComplete="current-password"
              error={errors.currentPassword?.message}
              {...form.register('currentPassword')}
            />
            <TextField
              id="password-new"
              label="New password"
              type="password"
              autoComplete="new-password"
              error={errors.newPassword?.message}
              {...form.register('newPassword')}
            />
            <TextField
              id="password-confirm"
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...form.register('confirmPassword')}
            />
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Change password'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
