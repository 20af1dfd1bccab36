import { ConflictError } from '@shiplog/errors';
import type { Decider } from '@shiplog/service-kit';
import { evolveMonitorSlots, initialMonitorSlots, type MonitorSlots, type MonitorSlotsEvent } from './monitor-slots.ts';

export type MonitorSlotsCommand =
  /**
   * A monitor is about to be added: its slot is taken first. `listed`: the user's monitors as the
   * monitor list shows them, which counts those added before slots were kept; `allowed`: the plan's cap.
   */
  | { type: 'TakeSlot'; userId: string; monitorId: string; listed: readonly string[]; allowed: number }
  /** The monitor was removed (by its owner, or with its project). */
  | { type: 'FreeSlot'; userId: string; monitorId: string };

export class MonitorLimitReachedError extends ConflictError {
  constructor(allowed: number) {
    super(`You can keep up to ${allowed} monitors: remove one to add another`, 'MONITOR_LIMIT_REACHED');
  }
}

/** The monitors that count against the cap: every slot held, and each listed monitor whose slot was not freed. */
export function keptMonitors(state: MonitorSlots, listed: readonly string[]): Set<string> {
  return new Set([...state.held, ...listed.filter((id) => !state.freed.has(id))]);
}

export function decideMonitorSlots(command: MonitorSlotsCommand, state: MonitorSlots, now: Date): MonitorSlotsEvent[] {
  const at = now.toISOString();
  const { userId, monitorId } = command;
  switch (command.type) {
    case 'TakeSlot': {
      // The same add again (its Idempotency-Key): its slot is already taken.
      if (state.held.has(monitorId)) return [];
      if (keptMonitors(state, command.listed).size >= command.allowed)
        throw new MonitorLimitReachedError(command.allowed);
      return [{ type: 'MonitorSlotTaken', data: { monitorId, userId, at } }];
    }
    case 'FreeSlot':
      if (state.freed.has(monitorId)) return [];
      return [{ type: 'MonitorSlotFreed', data: { monitorId, userId, at } }];
  }
}

export const monitorSlotsDecider: Decider<MonitorSlots, MonitorSlotsCommand, MonitorSlotsEvent> = {
  initialState: initialMonitorSlots,
  evolve: evolveMonitorSlots,
  decide: decideMonitorSlots,
};
