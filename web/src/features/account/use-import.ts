import type { ImportCounts, ImportResult } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { plural } from '../../lib/format';
import { told } from '../../lib/told';

/** Counts of each kind, as a phrase: "1 project, 2 reminders and 3 timeline entries". */
function counted(counts: ImportCounts): string {
  return `${plural(counts.projects, 'project')}, ${plural(counts.reminders, 'reminder')} and ${plural(counts.activities, 'timeline entry', 'timeline entries')}`;
}

const total = (counts: ImportCounts) => counts.projects + counts.reminders + counts.activities;

/** What an import added, and what of the file an earlier import had brought already. */
export function importTold(result: ImportResult): { title: string; description: string } {
  const before = total(result.importedBefore) > 0 ? counted(result.importedBefore) : null;
  if (total(result) === 0)
    return {
      title: 'Nothing new to import',
      description: before ? `This file was imported before: its ${before} are already here.` : 'The file is empty.',
    };
  return {
    title: 'Import complete',
    description: `Brought in ${counted(result)}.${before ? ` Already here from an earlier import: ${before}.` : ''}`,
  };
}

/**
 * POST /api/import: an export file back in. Everything it brings shows at once: every query is
 * fetched again (projects, reminders, the timeline, the dashboard's counters).
 */
export function useImportData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: unknown) => apiRequest<ImportResult>('POST', '/api/import', file),
    onSuccess: () => queryClient.invalidateQueries(),
    meta: told({
      success: importTold,
      failure: 'Import failed',
    }),
  });
}
