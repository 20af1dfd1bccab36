import { type ComponentProps, cloneElement, type ReactElement, Suspense, useState } from 'react';
import { lazyPart, preloading } from '../lib/on-demand';
import type { ConfirmDialogProps, DialogProps } from './dialog-panels';

/** The button that opens a dialog: `Dialog` gives it the click and the preload. */
export type DialogTrigger = ReactElement<ComponentProps<'button'>>;

const DialogPanel = lazyPart(() => import('./dialog-panels'), 'DialogPanel');
const ConfirmPanel = lazyPart(() => import('./dialog-panels'), 'ConfirmPanel');
const preloadPanel = preloading(DialogPanel);

/**
 * A dialog's open state: its owner's (`open`, `onOpenChange`) when given, else its own (a dialog opened
 * by its trigger button).
 */
export function useOpenState(
  open?: boolean,
  onOpenChange?: (open: boolean) => void,
): [boolean, (open: boolean) => void] {
  const [own, setOwn] = useState(false);
  return [open ?? own, onOpenChange ?? setOwn];
}

/** True from the first time `open` is: the panel stays mounted after, so it can close as Radix closes it. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened;
}

/**
 * A modal dialog whose Radix part loads the first time it opens (no page's first load carries
 * it). `trigger`, if given, is the button that opens it: pointing at it or focusing it starts the
 * download. Focus goes back to the trigger when the dialog closes.
 */
export function Dialog({
  trigger,
  preload,
  ...props
}: DialogProps & {
  trigger?: DialogTrigger;
  /** What else the dialog's content loads (a form's code, say): fetched with the panel (`preloading`). */
  preload?: () => void;
}) {
  const opened = useOpenedOnce(props.open);
  return (
    <>
      {trigger
        ? cloneElement(trigger, {
            'aria-haspopup': 'dialog',
            'aria-expanded': props.open,
            onClick: () => props.onOpenChange(true),
            onPointerEnter: () => {
              preloadPanel();
              preload?.();
            },
            onFocus: () => {
              preloadPanel();
              preload?.();
            },
          })
        : null}
      {opened ? (
        <Suspense fallback={null}>
          <DialogPanel {...props} />
        </Suspense>
      ) : null}
    </>
  );
}

/** A confirmation ('Are you sure?', Cancel and a destructive action), loaded the first time it opens. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const opened = useOpenedOnce(props.open);
  return opened ? (
    <Suspense fallback={null}>
      <ConfirmPanel {...props} />
    </Suspense>
  ) : null;
}
