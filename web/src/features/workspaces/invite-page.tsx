import { isId, type ReceivedInviteView, roleLabels } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { AlertCircle, Check, MailWarning, Users, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isNotFound } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/page-title';
import { userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { FullPageSpinner } from '../../ui/full-page-spinner';
import { Logo } from '../../ui/logo';
import { WarningNotice } from '../../ui/warning-notice';
import {
  invitePreviewQuery,
  messageOf,
  receivedInvitesQuery,
  useAcceptInvite,
  useDeclineInvite,
} from './use-workspaces';

/** Where the page keeps a link's secret while its visitor signs in or registers (this tab only). */
const secretKey = (id: string) => `shiplog-invite-${id}`;

/**
 * The secret of the emailed link `/invite/<id>#<secret>`: read from the `#` part, which reaches no
 * server's log, then kept for this tab and taken out of the address (and so out of the history), so
 * the way through sign-in comes back here without it in any URL. Signing out clears it.
 */
function useInviteSecret(id: string): string | null {
  const [secret] = useState(() => window.location.hash.slice(1) || sessionStorage.getItem(secretKey(id)));
  useEffect(() => {
    if (!secret) return;
    sessionStorage.setItem(secretKey(id), secret);
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, [id, secret]);
  return secret;
}

/**
 * An invite's page, from its emailed link: signed out, what it is for ("Ada invited you to Acme as
 * member") and the way to sign in or register, back here after; signed in, Accept or Decline. Without
 * the link's secret, a signed-in user's own pending invite by this id is shown.
 */
export function InvitePage() {
  const { id } = useParams({ from: '/invite/$id' });
  useDocumentTitle('Invite');
  const valid = isId(id);
  const secret = useInviteSecret(id);
  const { data: user, isPending: userPending } = useQuery(userQuery);
  const preview = useQuery({ ...invitePreviewQuery(id, secret ?? ''), enabled: valid && secret !== null });
  const received = useQuery({
    ...receivedInvitesQuery,
    enabled: valid && Boolean(user) && (secret === null || preview.isError),
  });
  // Once shown, the invite stays while it is answered (declined, it leaves the user's list).
  const found = preview.data ?? received.data?.find((mine) => mine.id === id);
  const [shown, setShown] = useState(found);
  if (found && found !== shown) setShown(found);

  if (userPending || preview.isLoading || received.isLoading) return <FullPageSpinner />;
  const invite = found ?? shown;
  const failure = [preview.error, received.error].find((error) => error && !isNotFound(error));
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-4">
      <Link to="/" aria-label="Shiplog home">
        <Logo />
      </Link>
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6">
          {!valid || !invite ? (
            <InviteUnavailable signedIn={Boolean(user)} failure={failure?.message} />
          ) : (
            <InviteDetails invite={invite} username={user?.username ?? null} emailed={preview.data !== undefined} />
          )}
        </CardContent>
      </Card>
    </main>
  );
}

function InviteDetails({
  invite,
  username,
  emailed,
}: {
  invite: ReceivedInviteView;
  username: string | null;
  /** The invite came by email: only an account that proved the address can take it. */
  emailed: boolean;
}) {
  const navigate = useNavigate();
  const accept = useAcceptInvite(true);
  const decline = useDeclineInvite();
  const redirect = `/invite/${invite.id}`;
  const accepted = () => {
    sessionStorage.removeItem(secretKey(invite.id));
    void navigate({ to: '/workspaces/$id', params: { id: invite.workspace.id } });
  };
  if (decline.isSuccess)
    return (
      <>
        <h1 className="font-semibold">Invite declined</h1>
        <p className="text-sm text-muted-foreground">You did not join “{invite.workspace.name}”.</p>
        <Button asChild variant="outline">
          <Link to="/workspaces">Go to Team workspaces</Link>
        </Button>
      </>
    );
  const notProven = isNotFound(accept.error) && !accept.isPending;
  return (
    <>
      <div className="flex items-center gap-2">
        <Users className="size-5 text-primary" aria-hidden />
        <h1 className="font-semibold">Join {invite.workspace.name}</h1>
      </div>
      <p data-testid="invite-summary">
        {invite.invitedBy} invited you to {invite.workspace.name} as {roleLabels[invite.role].toLowerCase()}.
      </p>
      <p className="text-sm text-muted-foreground">The invite works until {formatDate(invite.expiresAt)}.</p>
      {username === null ? (
        <>
          <p className="text-sm text-muted-foreground">
            Sign in or create an account to accept it.
            {emailed
              ? ' It was sent to an email address: the account that accepts it needs that address, proven in Settings.'
              : ''}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <Link to="/auth" search={{ redirect }}>
                Sign in
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/auth" search={{ redirect, tab: 'register' }}>
                Create account
              </Link>
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">Signed in as {username}.</p>
          {notProven ? (
            <WarningNotice icon={MailWarning} role="alert">
              This invite was emailed, and only an account that has proven the address it was sent to can accept it. Add
              that address in{' '}
              <Link to="/settings" className="font-medium underline">
                Settings
              </Link>{' '}
              and open the link we email you, then come back to this page. If you have, the invite may have been revoked
              or used.
            </WarningNotice>
          ) : accept.error && !accept.isPending ? (
            <p role="alert" className="text-sm text-destructive">
              {messageOf(accept.error)}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button
              disabled={accept.isPending || decline.isPending}
              onClick={() => accept.mutate(invite, { onSuccess: accepted })}
            >
              <Check /> {accept.isPending ? 'Joining...' : 'Accept'}
            </Button>
            <Button
              variant="outline"
              disabled={accept.isPending || decline.isPending}
              onClick={() =>
                decline.mutate(invite, { onSuccess: () => sessionStorage.removeItem(secretKey(invite.id)) })
              }
            >
              <X /> Decline
            </Button>
          </div>
        </>
      )}
    </>
  );
}

function InviteUnavailable({ signedIn, failure }: { signedIn: boolean; failure: string | undefined }) {
  return (
    <>
      <div className="flex items-center gap-2 text-destructive">
        <AlertCircle className="size-5" aria-hidden />
        <h1 className="font-semibold">{failure ? 'Could not open this invite' : 'This invite link does not work'}</h1>
      </div>
      <p className="text-sm text-muted-foreground">
        {failure ??
          'It may be incomplete, already used, revoked or expired. Open the link from the email again, or ask whoever invited you for a new invite.'}
      </p>
      <Button asChild variant="outline">
        {signedIn ? <Link to="/workspaces">Go to Team workspaces</Link> : <Link to="/auth">Sign in</Link>}
      </Button>
    </>
  );
}
