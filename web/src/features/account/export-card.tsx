import { EXPORT_REQUIRES_SUBSCRIPTION, isSubscribed } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Download, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { errorOf } from '../../lib/api';
import { positionHeaders } from '../../lib/positions';
import { useLiveCount } from '../../lib/use-live-count';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Progress } from '../../ui/progress';
import { toast } from '../../ui/toast';
import { subscriptionQuery } from '../billing/use-billing';
import { CalendarFeedCard } from '../reminders/calendar-feed-card';
import { useImportData } from './use-import';

/**
 * Settings › Export: everything the user keeps, to download as JSON (which imports back) or
 * CSV, its size shown as it arrives; an export file brought in, with its progress; and the reminders'
 * private calendar feed.
 */
export function ExportTab() {
  return (
    <div className="space-y-6">
      <ExportCard />
      <ImportCard />
      <CalendarFeedCard />
    </div>
  );
}

/** Bytes as people read them: 512 B, 340 KB, 1.2 MB. */
const sizeOf = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * The export, downloaded with its size shown as it arrives, then saved under the name the server
 * gives. Read as a stream here, not through `apiRequest` (which reads a whole JSON answer); a refusal
 * is raised as `apiRequest` raises it (`errorOf`, lib/api.ts), with the server's message.
 */
function useExportDownload() {
  const [received, setReceived] = useState<number | null>(null);
  const download = async (format: 'json' | 'csv') => {
    setReceived(0);
    try {
      const response = await fetch(`/api/export?format=${format}`, {
        credentials: 'include',
        headers: positionHeaders(),
      });
      if (!response.ok || !response.body) throw await errorOf(response);
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let size = 0;
      const reader = response.body.getReader();
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        chunks.push(part.value);
        size += part.value.length;
        setReceived(size);
      }
      const name =
        /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
        `shiplog-export.${format === 'json' ? 'json' : 'zip'}`;
      const url = URL.createObjectURL(new Blob(chunks, { type: response.headers.get('content-type') ?? '' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast({ title: 'Export failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setReceived(null);
    }
  };
  return { received, download };
}

function ExportCard() {
  const { data: subscription } = useQuery(subscriptionQuery);
  const allowed = isSubscribed(subscription?.status);
  const { received, download } = useExportDownload();
  const button = (format: 'json' | 'csv', label: string) => (
    <Button variant="outline" disabled={!allowed || received !== null} onClick={() => download(format)}>
      <Download aria-hidden="true" /> {label}
    </Button>
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Export your data</CardTitle>
        <CardDescription>
          Every project, reminder and timeline entry you keep. The JSON file imports back into Shiplog; the CSV files
          (one per kind, zipped) open in any spreadsheet.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          {button('json', 'Download JSON')}
          {button('csv', 'Download CSV (zip)')}
          {received !== null ? (
            <p className="text-sm text-muted-foreground" role="status" data-testid="export-progress">
              Downloading… {sizeOf(received)}
            </p>
          ) : null}
        </div>
        {subscription && !allowed ? (
          <p className="text-sm text-muted-foreground">
            {EXPORT_REQUIRES_SUBSCRIPTION}{' '}
            <Link to="/subscription" className="font-medium text-primary underline-offset-4 hover:underline">
              See the plans
            </Link>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** What an import file holds, as its progress counts it. */
type ImportCounts = { projects: number; reminders: number; activities: number };
const countsOf = (file: unknown): ImportCounts => {
  const list = (key: string) => {
    const value = (file as Record<string, unknown> | null)?.[key];
    return Array.isArray(value) ? value.length : 0;
  };
  return { projects: list('projects'), reminders: list('reminders'), activities: list('activities') };
};

function ImportCard() {
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [total, setTotal] = useState<ImportCounts | null>(null);
  const [importing, setImporting] = useState('');
  const importData = useImportData();
  const done = useLiveCount(importData.isPending, ['ProjectImported', 'ReminderImported']);
  const start = async () => {
    if (!chosen) return;
    let file: unknown;
    try {
      file = JSON.parse(await chosen.text());
    } catch {
      toast({
        title: 'Import failed',
        description: 'This file is not JSON. Choose the .json file an export downloaded.',
        variant: 'destructive',
      });
      return;
    }
    setTotal(countsOf(file));
    // The picker lets go of the file as soon as it is read, so the next one (even the same file again)
    // can be chosen while this one goes in; the button waits for the import either way.
    setImporting(chosen.name);
    setChosen(null);
    if (input.current) input.current.value = '';
    importData.mutate(file);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Import</CardTitle>
        <CardDescription>
          Bring in a Shiplog JSON export: its projects, reminders and timeline are added to this account with their
          original dates. Importing the same file again adds nothing twice.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          type="file"
          accept="application/json,.json"
          aria-label="Export file to import"
          className="text-sm"
          onChange={(e) => setChosen(e.currentTarget.files?.[0] ?? null)}
        />
        <Button onClick={start} disabled={!chosen || importData.isPending}>
          <Upload aria-hidden="true" /> {importData.isPending ? 'Importing...' : 'Import'}
        </Button>
        {importData.isPending && total ? <ImportProgress name={importing} total={total} done={done} /> : null}
      </CardContent>
    </Card>
  );
}

/**
 * An import as the server makes it: projects, then reminders, counted from the live feed as each is
 * added (a file imported again adds nothing, and the bar waits at its start); then the timeline, in one
 * step the feed does not count.
 */
function ImportProgress({ name, total, done }: { name: string; total: ImportCounts; done: Record<string, number> }) {
  const projects = Math.min(done.ProjectImported ?? 0, total.projects);
  const reminders = Math.min(done.ReminderImported ?? 0, total.reminders);
  const counted = total.projects + total.reminders;
  const timeline = projects + reminders >= counted;
  return (
    <div className="flex w-full flex-col gap-2" data-testid="import-progress">
      <Progress
        label="Import progress"
        value={timeline && total.activities > 0 ? undefined : projects + reminders}
        max={counted}
      />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {timeline && total.activities > 0
          ? `${name}: adding ${total.activities} timeline entries…`
          : `${name}: imported ${projects} of ${total.projects} projects and ${reminders} of ${total.reminders} reminders…`}
      </p>
    </div>
  );
}
