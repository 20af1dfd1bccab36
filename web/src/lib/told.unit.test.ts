import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { toasts } from '../ui/toast';
import { createQueryClient } from './queries';
import { told } from './told';

/** Runs one mutation through the app's query client and returns the toast it left, if any. */
async function shownAfter<T>(run: () => Promise<T>, meta: ReturnType<typeof told>, variables = 'sent') {
  const before = toasts.current()[0]?.id;
  const observer = new MutationObserver(createQueryClient(), { mutationFn: (_: string) => run(), meta });
  await observer.mutate(variables).catch(() => undefined);
  const [latest] = toasts.current();
  return latest && latest.id !== before ? { ...latest, id: undefined, open: undefined } : null;
}

describe('what a mutation tells the user', () => {
  it('shows its success text when the change is saved', async () => {
    expect(await shownAfter(async () => 1, told({ success: { title: 'Saved', description: 'Done.' } }))).toEqual({
      title: 'Saved',
      description: 'Done.',
    });
  });

  it('builds the success text from the answer and what was sent', async () => {
    const meta = told({
      success: (answer: number, sent: string) => ({ title: `Saved ${answer}`, description: sent }),
    });
    expect(await shownAfter(async () => 7, meta, 'the title')).toMatchObject({
      title: 'Saved 7',
      description: 'the title',
    });
  });

  it('reads what onMutate noted before the request', async () => {
    const before = toasts.current()[0]?.id;
    const observer = new MutationObserver(createQueryClient(), {
      mutationFn: async (_: string) => 'new@example.com',
      onMutate: () => ({ email: 'old@example.com' }),
      meta: told({
        success: (saved: string, _sent: string, noted: { email: string } | undefined) => ({
          title: saved === noted?.email ? 'Same' : `Changed from ${noted?.email}`,
        }),
      }),
    });
    await observer.mutate('sent');
    expect(toasts.current()[0]?.id).not.toBe(before);
    expect(toasts.current()[0]?.title).toBe('Changed from old@example.com');
  });

  it('shows a failure as a destructive toast carrying the server message under its title', async () => {
    const failing = () => Promise.reject(new Error('400: Name is required'));
    expect(await shownAfter(failing, told({ failure: 'Failed to save' }))).toEqual({
      title: 'Failed to save',
      description: '400: Name is required',
      variant: 'destructive',
    });
  });

  it('lets a screen word its failure, still destructive', async () => {
    const failing = () => Promise.reject(new Error('boom'));
    const meta = told({
      failure: (error) => ({ title: 'Error', description: `Failed to save update: ${error.message}` }),
    });
    expect(await shownAfter(failing, meta)).toEqual({
      title: 'Error',
      description: 'Failed to save update: boom',
      variant: 'destructive',
    });
  });

  it('says nothing when told nothing, or when the text is null', async () => {
    expect(await shownAfter(async () => 1, told({ failure: 'Failed' }))).toBeNull();
    expect(await shownAfter(() => Promise.reject(new Error('x')), told({ success: { title: 'Saved' } }))).toBeNull();
    expect(await shownAfter(async () => 1, told({ success: () => null }))).toBeNull();
  });

  it('says nothing when a held deletion is taken back with Undo', async () => {
    const undone = Object.assign(new Error('Undone'), { name: 'Undone' });
    expect(await shownAfter(() => Promise.reject(undone), told({ failure: 'Failed to delete' }))).toBeNull();
  });
});
