import { type FormEvent, useState } from 'react';
import { ApiError, apiRequest } from '../lib/api';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';
import { Input, Label } from './ui/input';

/**
 * Asks for the password again before a sensitive change (lib/reauth.ts), loaded the first time one is
 * asked for (reauth-host.tsx). Confirmed, the change goes ahead as the user asked; cancelled, it is not
 * made and the page says why.
 */
export function ReauthDialog({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const finish = onDone;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      await apiRequest('POST', '/api/reauth', { password });
      finish(true);
    } catch (failed) {
      setError(
        failed instanceof ApiError
          ? (failed.fieldErrors?.password?.[0] ?? failed.message.replace(/^\d+: /, ''))
          : 'Could not confirm your password',
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next) finish(false);
      }}
      title="Confirm your password"
      description="For your security, enter your password again to make this change."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-2">
          <Label htmlFor="reauth-password">Password</Label>
          <Input
            id="reauth-password"
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
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
          <Button type="submit" disabled={pending || password.length === 0}>
            Confirm
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
