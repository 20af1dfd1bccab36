import type { ReactNode } from 'react';

/** A toast as `toast()` is given it (ui/toast.tsx). */
export interface ToastInput {
  title: ReactNode;
  description?: ReactNode;
  variant?: 'default' | 'destructive';
  /** How long it stays, when not the default 5000 ms. */
  duration?: number;
  /** A button on it (Undo): `altText` says the other way to do it, for screen readers. */
  action?: { label: string; altText: string; onClick: () => void };
  /** Heard once when it is closed: by its close button, a swipe, or its time running out. */
  onClose?: () => void;
}

/** A toast as it is kept, and as the viewport draws it (ui/toaster.tsx). */
export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}
