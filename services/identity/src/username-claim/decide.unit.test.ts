import { describe, expect, it } from 'vitest';
import { decideClaim } from './decide.ts';
import { initialClaim } from './username-claim.ts';

const userId = '0193a1b2-0000-7000-8000-000000000001';

describe('username claim decide', () => {
  it('claims a free name once; a second claim is a 409', () => {
    const [claimed] = decideClaim({ type: 'ClaimUsername', username: 'Ada', userId }, initialClaim());
    expect(claimed).toEqual({ type: 'UsernameClaimed', data: { username: 'Ada', userId } });
    expect(() =>
      decideClaim({ type: 'ClaimUsername', username: 'ada', userId }, { status: 'claimed', userId, username: 'Ada' }),
    ).toThrow(expect.objectContaining({ status: 409, code: 'USERNAME_TAKEN' }));
  });

  it('releases only its own claim', () => {
    const state = { status: 'claimed' as const, userId, username: 'Ada' };
    expect(decideClaim({ type: 'ReleaseUsername', userId: 'someone-else' }, state)).toEqual([]);
    expect(decideClaim({ type: 'ReleaseUsername', userId }, state)).toEqual([
      { type: 'UsernameReleased', data: { username: 'Ada', userId } },
    ]);
  });
});
