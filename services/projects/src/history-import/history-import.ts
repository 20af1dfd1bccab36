import type { EventData } from '@shiplog/events';

export type HistoryEntry = EventData<'HistoryImported'>['entries'][number];

/** Import one part of a timeline from a Shiplog export. */
export interface ImportHistory {
  type: 'ImportHistory';
  userId: string;
  importId: string;
  entries: HistoryEntry[];
}

/** One part of an imported timeline: `history-import-<importId>`, the id derived from the entries' ids. */
export const historyStream = (importId: string) => `history-import-${importId}`;
