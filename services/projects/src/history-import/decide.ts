import type { EventOf } from '@shiplog/events';
import type { Decider } from '@shiplog/service-kit';
import type { ImportHistory } from './history-import.ts';

/**
 * One part of an imported timeline (`history-import-<importId>`, the id derived from the entries'
 * ids in the file): recorded once; the same part sent again records nothing.
 */
export const historyDecider: Decider<{ imported: boolean }, ImportHistory, EventOf<'HistoryImported'>> = {
  initialState: () => ({ imported: false }),
  evolve: () => ({ imported: true }),
  decide: (command, state, now) =>
    state.imported
      ? []
      : [
          {
            type: 'HistoryImported',
            data: {
              userId: command.userId,
              importId: command.importId,
              entries: command.entries,
              at: now.toISOString(),
            },
          },
        ],
};
