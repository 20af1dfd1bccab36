import type { UseMutationResult } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { formatDate } from '../lib/format';
import type { MadeSecretLink, SecretLinkState } from '../lib/secret-links';
import { Button } from './button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card';
import { CopyField } from './copy-field';

/**
 * A secret link's state as its card shows it: the link itself only in the moment it was made (the
 * server keeps its hash alone), else whether one is active and since when.
 */
export function SecretLinkStatus({
  made,
  state,
  label,
  copyLabel,
  copied,
  keepPrivate,
  mono = false,
}: {
  /** The link, when it was made in this visit of the page. */
  made: string | null;
  state: SecretLinkState | undefined;
  label: string;
  copyLabel: string;
  copied: string;
  /** What anyone holding the link could do. */
  keepPrivate: ReactNode;
  mono?: boolean;
}) {
  if (made)
    return (
      <div className="space-y-2 rounded-lg border border-primary/50 bg-accent/40 p-3">
        <CopyField value={made} label={label} copyLabel={copyLabel} copied={copied} mono={mono} />
        <p className="text-xs text-muted-foreground">Copy it now: it will not be shown again. {keepPrivate}</p>
      </div>
    );
  if (!state?.active || !state.createdAt) return null;
  return (
    <p className="text-sm text-muted-foreground">
      Active since {formatDate(state.createdAt)}. For security the link is shown only when it is made: make a new one to
      see it again (the old one stops working).
    </p>
  );
}

/**
 * A secret link's card (the calendar feed, a deploy webhook, a cron ping URL): make one, see it the
 * once it is made, make a new one (the old one stops) or turn it off. `children` show while it is on.
 * `readOnly` (a viewer of a team project): whether one is on, and nothing offered to change it.
 */
export function SecretLinkCard({
  title,
  description,
  state,
  make,
  turnOff,
  status,
  create,
  renew,
  remove,
  readOnly = false,
  children,
}: {
  title: string;
  description: ReactNode;
  state: SecretLinkState | undefined;
  make: UseMutationResult<MadeSecretLink, Error, void, unknown>;
  turnOff: UseMutationResult<null, Error, void, unknown>;
  /** What the link is and what holding it allows (SecretLinkStatus), but the link itself. */
  status: Omit<Parameters<typeof SecretLinkStatus>[0], 'made' | 'state'>;
  /** The buttons: making the first link (its variant), a new one, and turning it off. */
  create: { label: ReactNode; variant?: 'default' | 'outline' };
  renew: ReactNode;
  remove: string;
  readOnly?: boolean;
  children?: ReactNode;
}) {
  const [made, setMade] = useState<string | null>(null);
  const makeLink = () => make.mutate(undefined, { onSuccess: ({ url }) => setMade(url) });
  const removeLink = () => turnOff.mutate(undefined, { onSuccess: () => setMade(null) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {state?.active ? (
          <>
            <SecretLinkStatus made={made} state={state} {...status} />
            {children}
            {readOnly ? null : (
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={make.isPending} onClick={makeLink}>
                  {renew}
                </Button>
                <Button variant="ghost" size="sm" disabled={turnOff.isPending} onClick={removeLink}>
                  <Trash2 /> {remove}
                </Button>
              </div>
            )}
          </>
        ) : readOnly ? (
          <p className="text-sm text-muted-foreground">Not turned on.</p>
        ) : (
          <Button variant={create.variant ?? 'default'} disabled={make.isPending} onClick={makeLink}>
            {create.label}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
