import type { EventOf } from '@shiplog/events';

/**
 * A user's monitor slots, folded from their `monitor-slots-<userId>` stream: the monitors that hold
 * one, and those whose slot was freed. The cap is decided here, on one stream per user appended with
 * its expected revision, so creates racing in parallel are counted one after another (the monitor
 * list, a projection, would count none of those still on their way to it).
 */
export type MonitorSlotsEvent = EventOf<'MonitorSlotTaken'> | EventOf<'MonitorSlotFreed'>;

export interface MonitorSlots {
  held: ReadonlySet<string>;
  /** Freed slots' monitors: a monitor the list still shows a moment after its removal is not counted. */
  freed: ReadonlySet<string>;
}

export const monitorSlotsStream = (userId: string) => `monitor-slots-${userId}`;

export const initialMonitorSlots = (): MonitorSlots => ({ held: new Set(), freed: new Set() });

export function evolveMonitorSlots(state: MonitorSlots, event: MonitorSlotsEvent): MonitorSlots {
  const held = new Set(state.held);
  const freed = new Set(state.freed);
  if (event.type === 'MonitorSlotTaken') held.add(event.data.monitorId);
  else {
    held.delete(event.data.monitorId);
    freed.add(event.data.monitorId);
  }
  return { held, freed };
}
