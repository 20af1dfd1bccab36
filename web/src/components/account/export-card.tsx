import { EXPORT_REQUIRES_SUBSCRIPTION, isSubscribed } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Download, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { subscriptionQuery } from '../../hooks/use-billing';
import { useImportData } from '../../hooks/use-import';
import { CalendarFeedCard } from '../reminders/calendar-feed-card';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { toast } from '../ui/toast';

/**
 * Settings › Export: everything the user keeps, to download as JSON (which imports back) or
 * CSV; an export file brought in; and the reminders' private calendar feed.
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

function ExportCard() {
  const { data: subscription } = useQuery(subscriptionQuery);
  const allowed = isSubscribed(subscription?.status);
  const download = (format: 'json' | 'csv', label: string) =>
    allowed ? (
      // A plain link: the browser downloads the answer with the session, under the name the server gives.
      <Button asChild variant="outline">
        <a href={`/api/export?format=${format}`} download>
          <Download aria-hidden="true" /> {label}
        </a>
      </Button>
    ) : (
      <Button variant="outline" disabled>
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
        <div className="flex flex-wrap gap-2">
          {download('json', 'Download JSON')}
          {download('csv', 'Download CSV (zip)')}
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

function ImportCard() {
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const importData = useImportData();
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
    importData.mutate(file, {
      onSuccess: () => {
        setChosen(null);
        if (input.current) input.current.value = '';
      },
    });
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
      </CardContent>
    </Card>
  );
}
