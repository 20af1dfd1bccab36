import type { Bus } from './bus.ts';

/**
 * Who arrives on a team project's page and who leaves it, told to every gateway at once so the other
 * members' pages ask again who is there. Plain NATS, outside the namespace's JetStream subjects: a
 * presence is kept by nobody and lasts seconds, so a gateway that misses one loses nothing (the pages
 * also ask every 15 s).
 */
export interface PresenceChange {
  projectId: string;
  workspaceId: string;
  /** Who came or went: their own page is not told. */
  userId: string;
}

const subjectOf = (namespace: string) => `presence.${namespace}`;

export function announcePresence(bus: Bus, change: PresenceChange): void {
  bus.nc.publish(subjectOf(bus.namespace), JSON.stringify(change));
}

/** Hears every presence change of the namespace; answers how to stop. */
export function followPresence(bus: Bus, heard: (change: PresenceChange) => void): () => void {
  const subscription = bus.nc.subscribe(subjectOf(bus.namespace), {
    callback: (error, message) => {
      if (error) return;
      try {
        const change = JSON.parse(message.string()) as Partial<PresenceChange>;
        if (
          typeof change.projectId === 'string' &&
          typeof change.workspaceId === 'string' &&
          typeof change.userId === 'string'
        )
          heard(change as PresenceChange);
      } catch {
        // Not one of ours.
      }
    },
  });
  return () => subscription.unsubscribe();
}
