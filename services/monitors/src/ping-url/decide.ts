import type { Decider } from '@shiplog/service-kit';
import { evolvePingUrl, initialPingUrl, type PingUrlEvent, type PingUrlState } from './ping-url.ts';

/** The project a ping URL is for: whose it is and its space (null: its maker's personal space). */
export interface PingUrlProject {
  id: string;
  userId: string;
  workspaceId: string | null;
}

export type PingUrlCommand =
  /** Made, replacing one (`replaced`), or not. */
  | { type: 'MakePingUrl'; project: PingUrlProject; replaced: boolean }
  /** Turned off (one there was). */
  | { type: 'TurnOffPingUrl'; project: PingUrlProject };

export function decidePingUrl(command: PingUrlCommand, _state: PingUrlState, now: Date): PingUrlEvent[] {
  const { project } = command;
  const data = {
    projectId: project.id,
    ...(project.workspaceId ? { workspaceId: project.workspaceId } : {}),
    userId: project.userId,
    at: now.toISOString(),
  };
  return command.type === 'MakePingUrl'
    ? [{ type: 'PingUrlMade', data: { ...data, replaced: command.replaced } }]
    : [{ type: 'PingUrlTurnedOff', data }];
}

export const pingUrlDecider: Decider<PingUrlState, PingUrlCommand, PingUrlEvent> = {
  initialState: initialPingUrl,
  evolve: evolvePingUrl,
  decide: decidePingUrl,
};
