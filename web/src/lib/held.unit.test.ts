import { beforeAll, describe, expect, it } from 'vitest';
import { dismiss, toast, toasts } from '../ui/toast';

// The page's events, as a window gives them (these tests run in Node).
const page = new EventTarget();
let visibilityState = 'visible';
Object.assign(globalThis, {
  addEventListener: page.addEventListener.bind(page),
  document: {
    get visibilityState() {
      return visibilityState;
    },
  },
});

let held: typeof import('./held');
beforeAll(async () => {
  held = await import('./held');
});

/** Holds a deletion and answers how it ended so far: 'sent', 'undone', or 'held'. */
function hold(title = 'Project deleted') {
  let state: 'held' | 'sent' | 'undone' = 'held';
  const done = held.holdDeletion({ title }).then(
    () => {
      state = 'sent';
    },
    (error: Error) => {
      state = error.name === 'Undone' ? 'undone' : 'held';
    },
  );
  const [shown] = toasts.current();
  return { shown, done, state: () => state };
}

describe('a held deletion', () => {
  it('is told at once with an Undo, for ten seconds', () => {
    const { shown } = hold();
    expect(shown).toMatchObject({ title: 'Project deleted', duration: 10_000, open: true });
    expect(shown?.action?.label).toBe('Undo');
  });

  it('is taken back by Undo, which closes its toast, and never sent', async () => {
    const { shown, done, state } = hold();
    shown?.action?.onClick();
    await done;
    expect(state()).toBe('undone');
    expect(toasts.current().find((t) => t.id === shown?.id)?.open).toBe(false);
  });

  it('is sent when its toast closes: its time out, its close button, a swipe', async () => {
    const { shown, done, state } = hold();
    expect(state()).toBe('held');
    dismiss(shown?.id ?? 0);
    await done;
    expect(state()).toBe('sent');
    // An Undo after that changes nothing.
    shown?.action?.onClick();
    expect(state()).toBe('sent');
  });

  it('is sent when a newer toast takes its place', async () => {
    const { done, state } = hold();
    toast({ title: 'Something else' });
    await done;
    expect(state()).toBe('sent');
  });

  it('is sent when the page is hidden or goes away', async () => {
    const first = hold('first');
    visibilityState = 'hidden';
    page.dispatchEvent(new Event('visibilitychange'));
    await first.done;
    expect(first.state()).toBe('sent');
    visibilityState = 'visible';

    const second = hold('second');
    page.dispatchEvent(new Event('pagehide'));
    await second.done;
    expect(second.state()).toBe('sent');
  });

  it('answers the z shortcut: the latest one still held is taken back', async () => {
    const { done, state } = hold();
    expect(held.undoLatest()).toBe(true);
    await done;
    expect(state()).toBe('undone');
    expect(held.undoLatest()).toBe(false);
  });
});
