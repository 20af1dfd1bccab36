import { describe, expect, it } from 'vitest';
import { decidePingUrl } from './decide.ts';
import { initialPingUrl } from './ping-url.ts';

const now = new Date('2026-11-28T10:00:00.000Z');
const personal = {
  id: '11111111-1111-4111-8111-111111111111',
  userId: '22222222-2222-4222-8222-222222222222',
  workspaceId: null,
};
const team = { ...personal, workspaceId: '33333333-3333-4333-8333-333333333333' };

describe('a ping URL', () => {
  it('is made, saying whether it replaced one, in its project’s space', () => {
    expect(decidePingUrl({ type: 'MakePingUrl', project: team, replaced: true }, initialPingUrl(), now)).toEqual([
      {
        type: 'PingUrlMade',
        data: {
          projectId: team.id,
          workspaceId: team.workspaceId,
          userId: team.userId,
          replaced: true,
          at: now.toISOString(),
        },
      },
    ]);
  });

  it('is turned off; a personal project’s names no workspace', () => {
    expect(decidePingUrl({ type: 'TurnOffPingUrl', project: personal }, initialPingUrl(), now)).toEqual([
      { type: 'PingUrlTurnedOff', data: { projectId: personal.id, userId: personal.userId, at: now.toISOString() } },
    ]);
  });
});
