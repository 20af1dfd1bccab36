import type { SetStateAction } from 'react';
import type { KeyboardPanel } from '../components/command/command-palette';

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

/**
 * The app's keyboard, from the shell (loaded just after the first screen): ⌘K / Ctrl-K anywhere, a
 * field included, toggles the command palette; the keys in `shortcuts` work when no field has focus
 * and nothing modal is open. `/` goes to the page's search field, or opens the palette where there is
 * none. Returns what stops it.
 */
export function followShortcuts(
  show: (panel: SetStateAction<KeyboardPanel>) => void,
  navigate: (to: string) => void,
): () => void {
  let pending = '';
  let clear: ReturnType<typeof setTimeout> | undefined;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing) return;
    if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      show((open) => (open === 'palette' ? null : 'palette'));
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target) || somethingOpen()) return;
    const typed = pending ? `${pending} ${event.key}` : event.key;
    pending = '';
    clearTimeout(clear);
    if (shortcuts.some(({ keys }) => keys.startsWith(`${typed} `))) {
      pending = typed;
      clear = setTimeout(() => {
        pending = '';
      }, 1500);
      return;
    }
    const shortcut = shortcuts.find(({ keys }) => keys === typed);
    if (!shortcut) return;
    event.preventDefault();
    if (shortcut.to) navigate(shortcut.to);
    else if (typed === '?') show('shortcuts');
    else if (typed === 'z') void import('./held').then(({ undoLatest }) => undoLatest());
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
  };
  document.addEventListener('keydown', onKeyDown);
  return () => {
    document.removeEventListener('keydown', onKeyDown);
    clearTimeout(clear);
  };
}
