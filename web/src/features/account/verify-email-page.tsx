import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { AlertCircle, MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { apiRequest } from '../../lib/api';
import { useDocumentTitle } from '../../lib/page-title';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { FullPageSpinner } from '../../ui/full-page-spinner';
import { profileQuery } from './use-account';

/**
 * The link mailed to prove an address: `/verify-email#<secret>`. The secret is in the `#` part, so it
 * reaches no server's log; the page posts it, signed in or not (it is the credential).
 */
export function VerifyEmailPage() {
  useDocumentTitle('Verify email');
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ ok: true; email: string | null } | { ok: false; message: string } | null>(
    null,
  );
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = window.location.hash.slice(1);
    // The secret is spent: keep it out of the history and of anything the page links to.
    window.history.replaceState(null, '', window.location.pathname);
    apiRequest<{ email: string | null }>('POST', '/api/email-verification', { token })
      .then(({ email }) => {
        setOutcome({ ok: true, email });
        void queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
      })
      .catch((error: unknown) =>
        setOutcome({ ok: false, message: error instanceof Error ? error.message : 'This link is not valid.' }),
      );
  }, [queryClient]);

  if (!outcome) return <FullPageSpinner />;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6">
          {outcome.ok ? (
            <>
              <div className="flex items-center gap-2">
                <MailCheck className="size-5 text-primary" aria-hidden />
                <h1 className="font-semibold">Email address verified</h1>
              </div>
              <p className="text-sm text-muted-foreground">
                {outcome.email ? `Reminders will be emailed to ${outcome.email}.` : 'Reminders will be emailed to you.'}
              </p>
            </>
          ) : (
            <>
              <div className="flex items-center gap-2 text-destructive">
                <AlertCircle className="size-5" aria-hidden />
                <h1 className="font-semibold">Could not verify your email address</h1>
              </div>
              <p className="text-sm text-muted-foreground">{outcome.message}</p>
            </>
          )}
          <Button asChild>
            <Link to="/settings">Go to Settings</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
