import { useEffect, useState } from 'react';
import { apiRequest } from '../../lib/api';
import { liveFeed } from '../../lib/queries';
import { Avatar } from '../../ui/avatar';

/** How often an open page says so: the server counts a sign for 45 s, so two may go missing. */
const EVERY_MS = 15_000;

interface Present {
  userId: string;
  username: string;
}

/**
 * Who else has this team project's page open: the page says it is open while it is shown (now, every
 * 15 s, when it is shown again, and at once when the live feed says another member came or went) and
 * that it was left when the app goes to another page, and hears back the others. A closed tab says
 * nothing: it falls silent, and counts for nobody 45 s later.
 */
export function usePresence(projectId: string, enabled: boolean): Present[] {
  const [present, setPresent] = useState<Present[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const path = `/api/projects/${projectId}/presence`;
    const say = () => {
      if (document.visibilityState !== 'visible') return;
      apiRequest<Present[]>('POST', path).then(
        (others) => live && setPresent(others),
        () => undefined,
      );
    };
    say();
    const timer = setInterval(say, EVERY_MS);
    document.addEventListener('visibilitychange', say);
    // Another member came or went (the live feed): asked again at once.
    const heard = (changed: string) => {
      if (changed === projectId) say();
    };
    liveFeed.presence.add(heard);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', say);
      liveFeed.presence.delete(heard);
      // Another page of the app: left.
      apiRequest<null>('DELETE', path).catch(() => undefined);
    };
  }, [projectId, enabled]);
  return present;
}

/** The other members on this page now, as avatars with their names for screen readers and on hover. */
export function PresentMembers({ present }: { present: Present[] }) {
  if (present.length === 0) return null;
  const names = present.map((p) => p.username).join(', ');
  return (
    <div className="flex items-center gap-1" data-testid="present-members" title={`Also here: ${names}`}>
      <span className="sr-only">Also here: {names}</span>
      {present.slice(0, 5).map((p) => (
        <Avatar key={p.userId} username={p.username} className="size-7 text-xs ring-2 ring-background" />
      ))}
      {present.length > 5 ? <span className="text-xs text-muted-foreground">+{present.length - 5}</span> : null}
    </div>
  );
}
