import { useQuery } from '@tanstack/react-query';
import { Timer } from 'lucide-react';
import { formatTimeAgo } from '../../lib/time-ago';
import { SecretLinkCard } from '../../ui/secret-link';
import { projectMonitorsQuery } from './use-monitors';
import { type PingRun, pingQuery, useCreatePing, useDeletePing } from './use-ping';

const EXAMPLE = `curl -fsS "$SHIPLOG_PING/start" && ./backup.sh \\
  && curl -fsS "$SHIPLOG_PING" || curl -fsS "$SHIPLOG_PING/fail"`;

const outcomes: Record<PingRun['outcome'], string> = { running: 'Running', ok: 'Done', failed: 'Failed' };

/** `Done 2 hours ago · 3m 12s`: a run, when it ended (or began) and how long it took. */
function describeRun(run: PingRun): string {
  const when = formatTimeAgo(run.endedAt ?? run.startedAt);
  if (run.seconds === null) return `${outcomes[run.outcome]} ${when}`;
  const minutes = Math.floor(run.seconds / 60);
  const took = minutes > 0 ? `${minutes}m ${Math.round(run.seconds % 60)}s` : `${run.seconds}s`;
  return `${outcomes[run.outcome]} ${when} · ${took}`;
}

/**
 * The project's cron ping URL: the backup job calls it when done (`/start` first, `/fail` when it
 * failed). A good run counts as a backup for an expected one; a failed or unfinished one is an
 * incident. Without an expected backup its runs are only listed, and the card says so.
 */
export function PingCard({ projectId, readOnly = false }: { projectId: string; readOnly?: boolean }) {
  const { data } = useQuery(pingQuery(projectId));
  const { data: monitors } = useQuery(projectMonitorsQuery(projectId));
  const expected = monitors?.some((monitor) => monitor.kind === 'backup') ?? false;
  return (
    <SecretLinkCard
      title="Cron Ping URL"
      description={
        expected
          ? 'Your backup job calls it when it is done: a good run counts as the expected backup, a failed one is an incident.'
          : 'Your backup job calls it when it is done, and its runs are listed here. To be told when a run fails or is late, expect backups on this project (Monitors).'
      }
      state={data}
      make={useCreatePing(projectId)}
      turnOff={useDeletePing(projectId)}
      readOnly={readOnly}
      status={{
        label: 'Cron ping URL',
        copyLabel: 'Copy cron ping URL',
        copied: 'Call it from your cron job.',
        keepPrivate: 'Keep this URL private: anyone with it can record runs on this project.',
        mono: true,
      }}
      create={{
        label: (
          <>
            <Timer /> Create ping URL
          </>
        ),
        variant: 'outline',
      }}
      renew="New URL"
      remove="Turn off"
    >
      <details className="rounded-lg border p-3 text-sm">
        <summary className="cursor-pointer font-medium">How to use it</summary>
        <p className="mt-2 text-muted-foreground">
          Call it when the job ends, with /start when it begins (its run time is kept) and /fail when it failed.
        </p>
        <pre className="mt-2 overflow-x-auto rounded bg-muted p-2 text-xs">{EXAMPLE}</pre>
      </details>
      {(data?.runs ?? []).length > 0 ? (
        <ul className="space-y-1 text-sm" aria-label="Latest runs">
          {(data?.runs ?? []).map((run) => (
            <li key={run.startedAt} className={run.outcome === 'failed' ? 'text-destructive' : 'text-muted-foreground'}>
              {describeRun(run)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No runs yet.</p>
      )}
    </SecretLinkCard>
  );
}
