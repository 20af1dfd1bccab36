import { describe, expect, it } from 'vitest';
import { MonitorLimitReachedError, type MonitorSlotsCommand, monitorSlotsDecider } from './decide.ts';
import type { MonitorSlotsEvent } from './monitor-slots.ts';

const userId = '0190a1b2-0000-7000-8000-000000000001';
const ids = Array.from({ length: 4 }, (_, i) => `0190a1b2-0000-7000-8000-0000000000b${i}`);
const now = new Date('2026-11-26T12:05:00.000Z');
const at = now.toISOString();

const taken = (monitorId: string): MonitorSlotsEvent => ({ type: 'MonitorSlotTaken', data: { monitorId, userId, at } });
const freed = (monitorId: string): MonitorSlotsEvent => ({ type: 'MonitorSlotFreed', data: { monitorId, userId, at } });

function given(events: MonitorSlotsEvent[]) {
  const state = events.reduce(monitorSlotsDecider.evolve, monitorSlotsDecider.initialState());
  return { when: (command: MonitorSlotsCommand) => monitorSlotsDecider.decide(command, state, now) };
}
const take = (monitorId: string, listed: string[] = [], allowed = 2): MonitorSlotsCommand => ({
  type: 'TakeSlot',
  userId,
  monitorId,
  listed,
  allowed,
});

describe('monitor slots', () => {
  it('takes a slot while the cap has room, and refuses the one past it', () => {
    expect(given([]).when(take(ids[0]!))).toEqual([taken(ids[0]!)]);
    expect(given([taken(ids[0]!)]).when(take(ids[1]!))).toEqual([taken(ids[1]!)]);
    expect(() => given([taken(ids[0]!), taken(ids[1]!)]).when(take(ids[2]!))).toThrow(MonitorLimitReachedError);
  });

  it('counts the monitors the list shows that hold no slot (added before slots), once each', () => {
    expect(() => given([]).when(take(ids[2]!, [ids[0]!, ids[1]!]))).toThrow(MonitorLimitReachedError);
    // A monitor both held and listed is one monitor.
    expect(given([taken(ids[0]!)]).when(take(ids[1]!, [ids[0]!]))).toEqual([taken(ids[1]!)]);
  });

  it('gives a freed slot back at once, even while the list still shows its monitor', () => {
    const events = [taken(ids[0]!), taken(ids[1]!), freed(ids[0]!)];
    expect(given(events).when(take(ids[2]!, [ids[0]!, ids[1]!]))).toEqual([taken(ids[2]!)]);
  });

  it('takes nothing more for an add seen again, and frees a slot once', () => {
    expect(given([taken(ids[0]!), taken(ids[1]!)]).when(take(ids[1]!))).toEqual([]);
    const free: MonitorSlotsCommand = { type: 'FreeSlot', userId, monitorId: ids[0]! };
    expect(given([taken(ids[0]!)]).when(free)).toEqual([freed(ids[0]!)]);
    expect(given([taken(ids[0]!), freed(ids[0]!)]).when(free)).toEqual([]);
    // A monitor added before slots were kept frees its place in the count too.
    expect(given([]).when(free)).toEqual([freed(ids[0]!)]);
  });
});
