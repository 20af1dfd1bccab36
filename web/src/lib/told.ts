import type { Mutation } from '@tanstack/react-query';
import { toast } from '../ui/toast';
import type { ToastInput } from '../ui/toast-item';

/**
 * What a mutation tells the user, declared where the mutation is made (`meta: { told }` on
 * `useMutation`) and shown in one place: the query client's mutation cache (`showTold`). The toast
 * comes whether or not the screen that started the change is still mounted.
 */
export interface Told<TData = unknown, TVariables = unknown, TContext = unknown> {
  /**
   * Shown when the change is saved; a function reads the answer, what was sent and what the
   * mutation's `onMutate` noted before it was sent (null: nothing to say).
   */
  success?: ToastInput | ((data: TData, variables: TVariables, context: TContext) => ToastInput | null);
  /**
   * Shown (destructive) when it fails: a title over the server's message, or a function for the
   * screens whose texts the spec fixes otherwise (null: nothing to say).
   */
  failure?: string | ((error: Error, variables: TVariables) => ToastInput | null);
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { told?: Told<never, never, never> };
  }
}

/** The `meta` for `useMutation`: typed against the mutation's answer and variables. */
export function told<TData, TVariables, TContext = unknown>(
  texts: Told<TData, TVariables, TContext>,
): { told: Told<never, never> } {
  return { told: texts as Told<never, never> };
}

type AnyMutation = Mutation<unknown, unknown, unknown, unknown>;

/** The mutation cache's hooks: every mutation's toasts are shown here. */
export const showTold = {
  onSuccess(data: unknown, variables: unknown, context: unknown, mutation: AnyMutation) {
    const success = (mutation.meta?.told as Told | undefined)?.success;
    const shown = typeof success === 'function' ? success(data, variables, context) : success;
    if (shown) toast(shown);
  },
  onError(error: Error, variables: unknown, _context: unknown, mutation: AnyMutation) {
    // A held deletion taken back with Undo (lib/held.ts) is not a failure.
    if (error.name === 'Undone') return;
    const failure = (mutation.meta?.told as Told | undefined)?.failure;
    const shown =
      typeof failure === 'function'
        ? failure(error, variables)
        : failure && { title: failure, description: error.message };
    if (shown) toast({ variant: 'destructive', ...shown });
  },
};
