import { type AuditEntry, type AuditKind, auditKinds, type WorkspaceView } from '@shiplog/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { apiAnswer } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { keys } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { Skeleton } from '../../ui/skeleton';

const PAGE_SIZE = 20;

/** What each kind of entry says, before its target. */
const kindLabels: Record<AuditKind, string> = {
  'workspace.created': 'created the workspace',
  'workspace.renamed': 'renamed the workspace to',
  'member.invited': 'invited',
  'invite.revoked': 'revoked an invite',
  'invite.declined': 'declined an invite',
  'member.joined': 'joined',
  'member.role_changed': 'changed the role of',
  'member.removed': 'removed',
  'member.left': 'left',
  'project.created': 'created the project',
  'project.imported': 'imported the project',
  'project.moved_in': 'moved in the project',
  'project.moved_out': 'moved out the project',
  'project.deleted': 'deleted the project',
  'monitor.added': 'added a monitor to',
  'monitor.changed': 'changed a monitor of',
  'monitor.paused': 'paused a monitor of',
  'monitor.resumed': 'resumed a monitor of',
  'monitor.removed': 'removed a monitor of',
  'alert_channel.added': 'added the alert channel',
  'alert_channel.removed': 'removed the alert channel',
  'deploy_hook.made': 'made a deploy webhook URL for',
  'deploy_hook.turned_off': 'turned off the deploy webhook URL of',
  'ping_url.made': 'made a ping URL for',
  'ping_url.turned_off': 'turned off the ping URL of',
  'api_token.created': 'made the API token',
  'api_token.revoked': 'revoked the API token',
};

/** One entry as a sentence: "ada changed the role of bo (admin)". */
export function auditSentence(entry: AuditEntry): string {
  const who = entry.actor ? (entry.actor.username ?? 'A former member') : 'Shiplog';
  const onSelf =
    entry.kind === 'member.joined' || entry.kind === 'member.left' || entry.kind === 'invite.declined' || !entry.target;
  const role = typeof entry.details.role === 'string' ? ` (${entry.details.role})` : '';
  return `${who} ${kindLabels[entry.kind]}${onSelf ? '' : ` ${entry.target}`}${role}`;
}

/**
 * The workspace's audit log, for its owners and admins (the server refuses anyone else): newest first,
 * a page at a time, by kind, with its CSV and JSON exports.
 */
export function AuditCard({ workspace }: { workspace: WorkspaceView }) {
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<AuditKind | ''>('');
  const filter = kind ? `&kind=${kind}` : '';
  const { data, isPending, error } = useQuery({
    queryKey: [...keys.workspaces, workspace.id, 'audit', page, kind],
    queryFn: async () => {
      const { data: entries, headers } = await apiAnswer<AuditEntry[]>(
        'GET',
        `/api/workspaces/${workspace.id}/audit?page=${page}&limit=${PAGE_SIZE}${filter}`,
      );
      return { entries, total: Number(headers.get('x-total-count') ?? entries.length) };
    },
    placeholderData: keepPreviousData,
  });
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const exportHref = (format: 'csv' | 'json') =>
    `/api/workspaces/${workspace.id}/audit.${format}${kind ? `?kind=${kind}` : ''}`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Audit log</CardTitle>
        <CardDescription>
          Who did what in this workspace over the last year, and from which address. Only owners and admins see it.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex flex-wrap items-end gap-2">
          <div className="space-y-2">
            <Label htmlFor="audit-kind">Kind</Label>
            <Select
              id="audit-kind"
              className="block"
              value={kind}
              onChange={(event) => {
                setKind(event.target.value as AuditKind | '');
                setPage(1);
              }}
            >
              <option value="">Everything</option>
              {auditKinds.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </Select>
          </div>
          <Button asChild variant="outline" size="sm">
            <a href={exportHref('csv')} download>
              <Download /> CSV
            </a>
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={exportHref('json')} download>
              <Download /> JSON
            </a>
          </Button>
        </div>
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Could not load the audit log: {error.message}</p>
        ) : data.entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing recorded yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Audit log" data-testid="audit-log">
            {data.entries.map((entry) => (
              <li key={entry.id} className="space-y-0.5 p-3" data-testid="audit-entry">
                <p className="text-sm">{auditSentence(entry)}</p>
                <p className="text-xs text-muted-foreground">
                  <time dateTime={entry.at}>{formatDate(entry.at, 'MMM d, yyyy h:mm a')}</time>
                  {entry.address ? ` · from ${entry.address}` : null}
                </p>
              </li>
            ))}
          </ul>
        )}
        {pages > 1 ? (
          <div className="flex items-center justify-between">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Newer
            </Button>
            <span className="text-sm text-muted-foreground">
              Page {page} of {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Older
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
