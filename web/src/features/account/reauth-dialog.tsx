import { useState } from 'react';
import { ApiError, apiRequest } from '../../lib/api';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Input, Label } from '../../ui/input';

/**
 * Asks for the password again before a sensitive change (lib/reauth.ts), loaded the first time one is
 * asked for (reauth-host.tsx). Confirmed, the change goes ahead as the user asked; cancelled, it is not
 * made and the page says why.
 */
export function ReauthDialog({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const form = useSchemaForm('verifyPasswordSchema', { defaultValues: { password: '' } });
  // The server's refusal (a wrong password): shown until the next answer, as the user types again.
  const [refused, setRefused] = useState<string | null>(null);
  const finish = onDone;
  const error = form.formState.errors.password?.message ?? refused;

  const submit = async ({ password }: FormOutput<'verifyPasswordSchema'>) => {
    try {
      await apiRequest('POST', '/api/reauth', { password });
      finish(true);
    } catch (failed) {
      setRefused(
        failed instanceof ApiError
          ? (failed.fieldErrors?.password?.[0] ?? failed.message.replace(/^\d+: /, ''))
          : 'Could not confirm your password',
      );
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next) finish(false);
      }}
      title="Confirm your password"
      description="For your security, enter your password again to make this change."
    >
      <form onSubmit={form.handleSubmit(submit)} className="space-y-4" noValidate>
        <div className="space-y-2">
          <Label htmlFor="reauth-password">Password</Label>
          <Input
            id="reauth-password"
            type="password"
            autoComplete="current-password"
            autoFocus
            {...form.register('password')}
            aria-invalid={error !== null}
            aria-describedby={error ? 'reauth-error' : undefined}
          />
          {error && (
            <p id="reauth-error" role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => finish(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.formState.isSubmitting || form.watch('password').length === 0}>
            Confirm
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
