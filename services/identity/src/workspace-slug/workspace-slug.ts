import type { EventOf } from '@shiplog/events';

/** A workspace slug's claim, folded from its `workspace-slug-<slug>` stream. */
export type SlugEvent = EventOf<'WorkspaceSlugClaimed'> | EventOf<'WorkspaceSlugReleased'>;

export type SlugClaim =
  | { status: 'free' }
  | { status: 'claimed'; workspaceId: string }
  /** Given up: it still leads to its workspace, and is nobody else's, until `redirectUntil`. */
  | { status: 'released'; workspaceId: string; redirectUntil: string };

export const initialSlugClaim = (): SlugClaim => ({ status: 'free' });

export function evolveSlugClaim(_state: SlugClaim, event: SlugEvent): SlugClaim {
  switch (event.type) {
    case 'WorkspaceSlugClaimed':
      return { status: 'claimed', workspaceId: event.data.workspaceId };
    case 'WorkspaceSlugReleased':
      return { status: 'released', workspaceId: event.data.workspaceId, redirectUntil: event.data.redirectUntil };
  }
}

export const slugStream = (slug: string) => `workspace-slug-${slug}`;
