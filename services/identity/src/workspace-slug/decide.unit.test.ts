import { describe, expect, it } from 'vitest';
import { decideSlug } from './decide.ts';
import { evolveSlugClaim, initialSlugClaim, type SlugClaim, type SlugEvent } from './workspace-slug.ts';

const now = new Date('2026-11-28T12:00:00.000Z');
const a = '11111111-1111-4111-8111-111111111111';
const b = '22222222-2222-4222-8222-222222222222';
const fold = (events: SlugEvent[]): SlugClaim => events.reduce(evolveSlugClaim, initialSlugClaim());
const claimed = fold(decideSlug({ type: 'ClaimSlug', slug: 'crew', workspaceId: a }, initialSlugClaim(), now));
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

describe('a workspace slug', () => {
  it('is the first claimant’s; claiming it again is nothing, another workspace is refused', () => {
    expect(claimed).toEqual({ status: 'claimed', workspaceId: a });
    expect(decideSlug({ type: 'ClaimSlug', slug: 'crew', workspaceId: a }, claimed, now)).toEqual([]);
    expect(() => decideSlug({ type: 'ClaimSlug', slug: 'crew', workspaceId: b }, claimed, now)).toThrow(/taken/);
  });

  it('given up, still leads to its workspace and is nobody else’s until its redirect ends', () => {
    const released = fold([
      ...decideSlug({ type: 'ClaimSlug', slug: 'crew', workspaceId: a }, initialSlugClaim(), now),
      ...decideSlug({ type: 'ReleaseSlug', slug: 'crew', workspaceId: a, redirectUntil: inDays(30) }, claimed, now),
    ]);
    expect(released).toEqual({ status: 'released', workspaceId: a, redirectUntil: inDays(30) });
    expect(() => decideSlug({ type: 'ClaimSlug', slug: 'crew', workspaceId: b }, released, now)).toThrow(/taken/);
    // Its own workspace takes it back at once; anyone may after 30 days.
    expect(decideSlug({ type: 'ClaimSlug', slug: 'crew', workspaceId: a }, released, now)).toHaveLength(1);
    expect(
      decideSlug({ type: 'ClaimSlug', slug: 'crew', workspaceId: b }, released, new Date(inDays(31))),
    ).toHaveLength(1);
    // Only its holder gives it up.
    expect(
      decideSlug({ type: 'ReleaseSlug', slug: 'crew', workspaceId: b, redirectUntil: now.toISOString() }, claimed, now),
    ).toEqual([]);
  });
});
