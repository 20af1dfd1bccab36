import type { SetStateAction } from 'react';

/** What the shell has open: the palette, the shortcuts sheet, or neither. */
export type KeyboardPanel = 'palette' | 'shortcuts' | null;

/**
 * Every shortcut, as typed: one key, or `g` then a key within a second and a half. The sheet `?` opens
 * lists them from here, so what it says is what the app answers to.
 */
export const shortcuts: { keys: string; label: string; to?: string }[] = [
  { keys: 'c', label: 'New project', to: '/new-project' },
  { keys: '/', label: "Search (the page's search field, or the palette)" },
  { keys: 'g d', label: 'Go to Dashboard', to: '/' },
  { keys: 'g p', label: 'Go to My Projects', to: '/projects' },
  { keys: 'g r', label: 'Go to Reminders', to: '/reminders' },
  { keys: 'x', label: 'Select the focused project (My Projects)' },
  { keys: 'z', label: 'Undo the last deletion (within 10 seconds)' },
  { keys: '?', label: 'Show keyboard shortcuts' },
];

/** A field taking text (or a select, or an editable region): its keys are the user's, not the app's. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Something modal or a menu is open: its keys are its own (Escape closes it first). */
const somethingOpen = () =>
  document.querySelector('[role="dialog"],[role="alertdialog"],[role="menu"],dialog[open]') !== null;

declare global {
  interface Window {
    /**
     * The keys pressed before this module has loaded, as index.html's listener kept them (the app's
     * shortcuts, with the browser's own action for them held back): `wake` is what the shell has this
     * module loaded with at once, `stop` ends the listener once this one has taken over.
     */
    __shiplogKeys?: { queued: KeyboardEvent[]; wake?: (() => void) | null; stop: () => void };
  }
}

/** A sequence's second key counts within a second and a half of its first. */
const SEQUENCE_MS = 1500;

/**
 * The app's keyboard, from the shell: ⌘K / Ctrl-K anywhere, a field included, toggles the command
 * palette; the keys in `shortcuts` work when no field has focus and nothing modal is open. `/` goes
 * to the page's search field, or opens the palette where there is none. It takes over from index.html's
 * listener and answers the keys that one kept, in order, until one of them opens or goes somewhere
 * (what was typed after it was meant for what it opened). Returns what stops it.
 */
export function followShortcuts(
  show: (panel: SetStateAction<KeyboardPanel>) => void,
  navigate: (to: string) => void,
): () => void {
  let pending = '';
  let pendingAt = 0;
  /** Does what `event` asks; says whether it was one of the app's keys. */
  const answer = (event: KeyboardEvent): boolean => {
    if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
      show((open) => (open === 'palette' ? null : 'palette'));
      return true;
    }
    if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target) || somethingOpen()) return false;
    const typed = pending && event.timeStamp - pendingAt < SEQUENCE_MS ? `${pending} ${event.key}` : event.key;
    pending = '';
    if (shortcuts.some(({ keys }) => keys.startsWith(`${typed} `))) {
      pending = typed;
      pendingAt = event.timeStamp;
      return false;
    }
    const shortcut = shortcuts.find(({ keys }) => keys === typed);
    if (!shortcut) return false;
    if (shortcut.to) navigate(shortcut.to);
    else if (typed === '?') show('shortcuts');
    else if (typed === 'z') void import('../lib/held').then(({ undoLatest }) => undoLatest());
    else if (typed === 'x')
      document.activeElement
        ?.closest('[data-testid="project-card"]')
        ?.querySelector<HTMLElement>('[data-select]')
        ?.click();
    else {
      const field = document.querySelector<HTMLInputElement>('main input[type="search"]');
      if (field) field.focus();
      else show('palette');
    }
    return true;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing) return;
    if (answer(event)) event.preventDefault();
  };
  document.addEventListener('keydown', onKeyDown);
  const early = window.__shiplogKeys;
  early?.stop();
  for (const event of early?.queued.splice(0) ?? []) if (answer(event)) break;
  return () => document.removeEventListener('keydown', onKeyDown);
}
