import type { Activity, Project, Reminder } from './views.ts';

// Export and import, without zod: what the web app reads of them needs none.

export const EXPORT_FORMAT = 'shiplog-export';

/**
 * `GET /api/export`: everything a user keeps, each record as the API answers it, so the
 * file reads like the API and imports back (`POST /api/import`).
 */
export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: 1;
  exportedAt: string;
  username: string;
  projects: Project[];
  reminders: Reminder[];
  /** The whole timeline, oldest first. */
  activities: Activity[];
}

export const exportFormats = ['json', 'csv'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** Export is on the paid plan's feature list (spec/account.md §1). */
export const EXPORT_REQUIRES_SUBSCRIPTION =
  'Export requires an active subscription. Please upgrade to use this feature.';

export const activityStatuses = ['success', 'failed', 'in_progress'] as const;

export interface ImportCounts {
  projects: number;
  reminders: number;
  activities: number;
}

/**
 * What `POST /api/import` answers: how many of each it added, and how many of the file's were left as
 * they are because an earlier import of it had brought them (none comes in twice, however often it runs).
 */
export interface ImportResult extends ImportCounts {
  importedBefore: ImportCounts;
}
