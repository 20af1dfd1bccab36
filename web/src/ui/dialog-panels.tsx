import * as AlertDialogPrimitive from '@radix-ui/react-alert-dialog';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, type RefObject, useRef, useState } from 'react';
import { cn } from '../lib/class-names';
import { Button } from './button';
import { Input, Label } from './input';

/** The dialogs' Radix parts, loaded with the first dialog a page opens (ui/dialog.tsx). */

/** What a dialog is given (`Dialog` in ui/dialog.tsx passes it on). */
export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** What a confirmation is given (`ConfirmDialog` in ui/dialog.tsx passes it on). */
export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  /**
   * For what cannot be undone and is easily mistaken for another (a workspace, by its name): the text
   * to type before the action is offered.
   */
  typeToConfirm?: string;
}

/**
 * Focus goes back to what had it when the dialog opened: the button that opened it, or wherever the
 * keyboard was when a shortcut or the command palette did. (Radix returns it only to its own Trigger,
 * which these dialogs do not use.) Spread onto a Radix Content.
 */
export function useFocusReturn() {
  const from = useRef<Element | null>(null);
  return {
    onOpenAutoFocus: () => {
      from.current = document.activeElement;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = from.current;
      from.current = null;
      if (target instanceof HTMLElement && target.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}

export function DialogPanel({ open, onOpenChange, className, title, description, children }: DialogProps) {
  const focusReturn = useFocusReturn();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content
          {...focusReturn}
          className={cn(
            'fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-card p-6 shadow-lg',
            className,
          )}
        >
          <div className="space-y-1.5">
            <DialogPrimitive.Title className="text-lg font-semibold">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="text-sm text-muted-foreground">
                {description}
              </DialogPrimitive.Description>
            ) : (
              <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
            )}
          </div>
          {children}
          <DialogPrimitive.Close
            className="absolute right-4 top-4 rounded-sm opacity-70 hover:opacity-100"
            aria-label="Close"
          >
            <X className="size-4" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * A confirmation: 'Are you sure?' style, with Cancel and a destructive action; with `typeToConfirm`,
 * the action waits until that text is typed (the field has the focus, Enter confirms).
 */
export function ConfirmPanel({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
  typeToConfirm,
}: ConfirmDialogProps) {
  const focusReturn = useFocusReturn();
  const typed = useRef<HTMLInputElement>(null);
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <AlertDialogPrimitive.Content
          {...focusReturn}
          onOpenAutoFocus={(event) => {
            focusReturn.onOpenAutoFocus();
            // Radix focuses Cancel; the text to type comes first.
            if (!typed.current) return;
            event.preventDefault();
            typed.current.focus();
          }}
          className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-lg"
        >
          <AlertDialogPrimitive.Title className="text-lg font-semibold">{title}</AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="text-sm text-muted-foreground">
            {description}
          </AlertDialogPrimitive.Description>
          {typeToConfirm === undefined ? (
            <ConfirmButtons confirmLabel={confirmLabel} disabled={pending} onConfirm={onConfirm} />
          ) : (
            <TypedConfirmation
              text={typeToConfirm}
              input={typed}
              confirmLabel={confirmLabel}
              pending={pending}
              onConfirm={onConfirm}
            />
          )}
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}

function ConfirmButtons({
  confirmLabel,
  disabled,
  onConfirm,
  submit = false,
}: {
  confirmLabel: string;
  disabled: boolean | undefined;
  onConfirm?: () => void;
  /** The button submits its form (which confirms) instead of confirming on click. */
  submit?: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <AlertDialogPrimitive.Cancel asChild>
        <Button variant="outline" type="button">
          Cancel
        </Button>
      </AlertDialogPrimitive.Cancel>
      <Button
        variant="destructive"
        type={submit ? 'submit' : 'button'}
        disabled={disabled}
        onClick={
          submit
            ? undefined
            : (event) => {
                event.preventDefault();
                onConfirm?.();
              }
        }
      >
        {confirmLabel}
      </Button>
    </div>
  );
}

/** The field the confirmation's text is typed in, and the buttons, the action held until it matches. */
function TypedConfirmation({
  text,
  input,
  confirmLabel,
  pending,
  onConfirm,
}: {
  text: string;
  input: RefObject<HTMLInputElement | null>;
  confirmLabel: string;
  pending: boolean | undefined;
  onConfirm: () => void;
}) {
  const [value, setValue] = useState('');
  const matches = value.trim() === text.trim();
  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (matches && !pending) onConfirm();
      }}
    >
      <div className="space-y-2">
        <Label htmlFor="confirm-typed">
          Type <span className="font-semibold">{text}</span> to confirm
        </Label>
        <Input
          id="confirm-typed"
          ref={input}
          value={value}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <ConfirmButtons confirmLabel={confirmLabel} disabled={pending || !matches} submit />
    </form>
  );
}
