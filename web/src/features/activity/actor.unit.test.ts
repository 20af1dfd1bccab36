import { describe, expect, it } from 'vitest';
import { actorText } from './actor';

const you = '11111111-1111-4111-8111-111111111111';
const ada = '22222222-2222-4222-8222-222222222222';

describe('who did it, as an entry says it', () => {
  it('names another member, a token and a platform, and says nothing of the reader’s own', () => {
    const by = (actor: Parameters<typeof actorText>[0]['actor'], metadata: Record<string, unknown> = {}) =>
      actorText({ actor, metadata }, you);
    expect(by({ userId: you, username: 'me', token: null })).toBeNull();
    expect(by({ userId: ada, username: 'ada', token: null })).toBe('by ada');
    expect(by({ userId: you, username: 'me', token: 'CI' })).toBe('by you with the token “CI”');
    expect(by({ userId: ada, username: null, token: null })).toBe('by a former member');
    expect(by(null, { source: { platform: 'vercel', deploymentId: 'd1' } })).toBe('by Vercel');
    expect(by(null, { source: { platform: 'generic', deploymentId: 'd1' } })).toBe('by the deploy webhook');
    expect(by(null)).toBeNull();
  });
});
