import type { ImportResult } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import { plural } from '../lib/format';
import { told } from '../lib/told';

/** What an import brought, in a sentence. */
function importSummary(result: ImportResult): string {
  return `${plural(result.projects, 'project')}, ${plural(result.reminders, 'reminder')} and ${plural(result.activities, 'timeline entry', 'timeline entries')}.`;
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
      success: (result: ImportResult) => ({
        title: 'Import complete',
        description: `Brought in ${importSummary(result)}`,
      }),
      failure: 'Import failed',
    }),
  });
}
