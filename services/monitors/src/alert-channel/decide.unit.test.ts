import { describe, expect, it } from 'vitest';
import { decideAlertChannels } from './decide.ts';

const userId = '01900000-0000-7000-8000-000000000001';
const now = new Date('2026-11-26T12:00:00Z');
const add = (channelId: string, allowed = 10) =>
  ({
    type: 'AddChannel',
    userId,
    channelId,
    kind: 'slack',
    name: 'Team',
    url: 'https://hooks.slack.com/services/T/B/X',
    secret: null,
    allowed,
  }) as const;

describe('alert channels', () => {
  it('adds a channel once, up to the limit, and removes only one that exists', () => {
    const [added] = decideAlertChannels(add('c1'), new Map(), now);
    expect(added).toMatchObject({ type: 'AlertChannelAdded', data: { channelId: 'c1', kind: 'slack' } });
    const state = new Map([
      ['c1', { id: 'c1', kind: 'slack' as const, name: 'Team', url: 'u', secret: null, createdAt: '' }],
    ]);
    // The same add again (a retried request) decides nothing.
    expect(decideAlertChannels(add('c1'), state, now)).toEqual([]);
    expect(() => decideAlertChannels(add('c2', 1), state, now)).toThrow('You can keep up to 1 alert channels');
    expect(decideAlertChannels({ type: 'RemoveChannel', userId, channelId: 'c1' }, state, now)).toEqual([
      { type: 'AlertChannelRemoved', data: { channelId: 'c1', userId, at: now.toISOString() } },
    ]);
    expect(() => decideAlertChannels({ type: 'RemoveChannel', userId, channelId: 'c9' }, state, now)).toThrow(
      'Alert channel not found',
    );
  });
});
