import { ConflictError } from '@shiplog/errors';
import type { Decider } from '@shiplog/service-kit';
import { evolveSlugClaim, initialSlugClaim, type SlugClaim, type SlugEvent } from './workspace-slug.ts';

/**
 * A workspace slug's claim (`workspace-slug-<slug>`): the first workspace to claim a slug has it until
 * it gives it up; then it still leads there, and is nobody else's, for `redirectUntil` (its workspace
 * may take it back at any time). Claimed before the workspace is changed, as a username is.
 */
export type SlugCommand =
  | { type: 'ClaimSlug'; slug: string; workspaceId: string }
  | { type: 'ReleaseSlug'; slug: string; workspaceId: string; redirectUntil: string };

export const slugTaken = () => new ConflictError('This address is taken: choose another slug', 'SLUG_TAKEN');

export function decideSlug(command: SlugCommand, state: SlugClaim, now: Date): SlugEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'ClaimSlug': {
      if (state.status === 'claimed') {
        if (state.workspaceId === command.workspaceId) return [];
        throw slugTaken();
      }
      if (
        state.status === 'released' &&
        state.workspaceId !== command.workspaceId &&
        Date.parse(state.redirectUntil) > now.getTime()
      )
        throw slugTaken();
      return [{ type: 'WorkspaceSlugClaimed', data: { slug: command.slug, workspaceId: command.workspaceId, at } }];
    }
    case 'ReleaseSlug':
      if (state.status !== 'claimed' || state.workspaceId !== command.workspaceId) return [];
      return [
        {
          type: 'WorkspaceSlugReleased',
          data: { slug: command.slug, workspaceId: command.workspaceId, redirectUntil: command.redirectUntil, at },
        },
      ];
  }
}

export const slugDecider: Decider<SlugClaim, SlugCommand, SlugEvent> = {
  initialState: initialSlugClaim,
  evolve: evolveSlugClaim,
  decide: decideSlug,
};
