import type { ReactNode } from 'react';
import { formatDate } from '../lib/format';
import type { SecretLinkState } from '../lib/secret-links';
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
