import { toast } from '../ui/toast';
import type { ToastInput } from '../ui/toast-item';

/** How long a deletion waits for an Undo before it is sent. */
export const HOLD_MS = 10_000;

/** A held deletion taken back with Undo: its mutation fails with this, and says nothing. */
export class Undone extends Error {
  override name = 'Undone';
  constructor() {
    super('Undone');
  }
}

/** The held deletions' sends, for a page that goes away (closed, reloaded, left, hidden). */
const waiting = new Set<() => void>();
/** The Undo of the latest held deletion still waiting (the `z` shortcut). */
let latest: (() => void) | null = null;

/**
 * Holds a deletion (decision 038): `shown` is told at once in a toast with an Undo, while the caller
 * shows the item gone. The toast is the hold: it stays `HOLD_MS` (longer while hovered or focused, as
 * any toast), and when it closes (its time out, its close button, a swipe, a newer toast in its place)
 * or the page is hidden or goes away (the request then leaves with `keepalive`), this resolves and the
 * caller sends the deletion. Undo first rejects with `Undone`: the caller puts the item back, and
 * nothing reaches the server or the timeline.
 */
export function holdDeletion(shown: ToastInput): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = () => {
      settled = true;
      waiting.delete(send);
      if (latest === undo) latest = null;
    };
    const send = () => {
      if (settled) return;
      settle();
      resolve();
    };
    const undo = () => {
      if (settled) return;
      settle();
      told.dismiss();
      reject(new Undone());
    };
    waiting.add(send);
    latest = undo;
    const told = toast({
      ...shown,
      duration: HOLD_MS,
      action: { label: 'Undo', altText: 'Press z to undo', onClick: undo },
      onClose: send,
    });
  });
}

/** Takes back the latest deletion still held; answers whether there was one. */
export function undoLatest(): boolean {
  if (!latest) return false;
  latest();
  return true;
}

const sendAll = () => {
  for (const send of [...waiting]) send();
};
addEventListener('pagehide', sendAll);
addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') sendAll();
});
