import { describe, expect, it } from 'vitest';
import { historyDecider } from './decide.ts';

const now = new Date('2026-11-26T10:00:00.000Z');
const command = {
  type: 'ImportHistory' as const,
  userId: '0193a1b2-0000-7000-8000-000000000001',
  importId: '0193a1b2-0000-7000-8000-000000000002',
  entries: [],
};

describe('history import decide', () => {
  it('records a part of an imported timeline once; the same part again records nothing', () => {
    const first = historyDecider.decide(command, historyDecider.initialState(), now);
    expect(first).toEqual([
      {
        type: 'HistoryImported',
        data: { userId: command.userId, importId: command.importId, entries: [], at: now.toISOString() },
      },
    ]);
    const state = first.reduce(historyDecider.evolve, historyDecider.initialState());
    expect(historyDecider.decide(command, state, now)).toEqual([]);
  });
});
