import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, apiRequest } from '../lib/api';
import { answerReauth } from '../lib/reauth';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';
import { Input, Label } from './ui/input';

/**
 * Asks for the password again before a sensitive change (lib/reauth.ts). Confirmed, the change goes
 * ahead as the user asked; cancelled, it is not made and the page says why.
 */
export function ReauthDialog() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(
    () =>
      answerReauth(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current?.(false);
            settle.current = resolve;
            setPassword('');
            setError(null);
            setOpen(true);
          }),
      ),
    [],
  );

  const finish = (confirmed: boolean) => {
    settle.current?.(confirmed);
    settle.current = null;
    setOpen(false);
  };

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
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : finish(false))}
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
