import { Suspense, useSyncExternalStore } from 'react';
import { lazyPart } from '../lib/on-demand';
import type { ToastInput, ToastItem } from './toast-item';

/**
 * Toasts (spec/core.md §9): one at a time; shown 5000 ms by default; swipe threshold 50; F8 focuses
 * the viewport; a dismissed toast is removed after 1,000,000 ms; at the top on mobile, bottom right
 * and at most 420 px wide from medium screens up.
 */
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY = 1_000_000;

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  items = next;
  for (const listener of listeners) listener();
}

export function dismiss(id: number) {
  const closing = items.find((t) => t.id === id && t.open);
  emit(items.map((t) => (t.id === id ? { ...t, open: false } : t)));
  closing?.onClose?.();
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(items.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

export function toast(input: ToastInput): { id: number; dismiss: () => void } {
  const id = nextId++;
  const all = [{ ...input, id, open: true }, ...items];
  emit(all.slice(0, TOAST_LIMIT));
  // One at a time: those it replaces are closed.
  for (const replaced of all.slice(TOAST_LIMIT)) if (replaced.open) replaced.onClose?.();
  return { id, dismiss: () => dismiss(id) };
}

/** The toasts now (the one shown first), and a way to hear of the next change. */
export const toasts = {
  current: (): ToastItem[] => items,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(toasts.subscribe, toasts.current);
}

const LoadedToaster = lazyPart(() => import('./toaster'), 'Toaster');

/** Loads the viewport ahead of the first toast (the shell does, after the first screen). */
export const preloadToaster = () => LoadedToaster.preload?.();

/** The toasts' viewport (Radix, toaster.tsx) loads with the first toast, or ahead of it; never with the first screen. */
export function Toaster() {
  const shown = useToasts();
  return shown.length > 0 ? (
    <Suspense fallback={null}>
      <LoadedToaster toasts={shown} onDismiss={dismiss} />
    </Suspense>
  ) : null;
}
