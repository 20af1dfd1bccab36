import { z } from 'zod';

/** The services that append events. */
export type EventOwner = 'identity' | 'billing' | 'projects' | 'reminders' | 'chat' | 'integrations' | 'monitors';

export interface CatalogEntry<S extends z.ZodType> {
  owner: EventOwner;
  version: number;
  publish: boolean;
  schema: S;
  upcasters?: Record<number, (data: unknown) => unknown>;
  /**
   * Whose personal data the event holds: its `data.userId`, unless `false` (ids only, or content that
   * belongs to no user); a team workspace's project's events name the workspace (`data.workspaceId`),
   * whose they are, so a member's erasure leaves them. Events with a subject are stored sealed with
   * that subject's key (`@shiplog/vault`), so forgetting the key erases them wherever they were copied.
   */
  personal?: false;
}

// Keeps each entry's owner and publish flag as literals, for PublishedEventType.
export function event<S extends z.ZodType, O extends EventOwner, P extends boolean>(
  entry: CatalogEntry<S> & { owner: O; publish: P },
): CatalogEntry<S> & { owner: O; publish: P } {
  return entry;
}

export const isoDate = z.iso.datetime({ offset: true });
export const id = z.uuid();
