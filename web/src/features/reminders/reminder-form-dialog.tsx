import type { Reminder } from '@shiplog/schemas';
import { Suspense } from 'react';
import { lazyPart, preloading } from '../../lib/on-demand';
import { Dialog, type DialogTrigger, useOpenState } from '../../ui/dialog';
import { Spinner } from '../../ui/spinner';

// The form, with react-hook-form, loads when the dialog first opens (or its button is pointed at).
const ReminderForm = lazyPart(() => import('./reminder-form'), 'ReminderForm');

/** Adding or editing a reminder: opened by its button (`trigger`), or by its owner (`open`, `onOpenChange`). */
export function ReminderFormDialog({
  projectId,
  reminder,
  trigger,
  open: controlled,
  onOpenChange,
}: {
  projectId: string;
  reminder?: Reminder;
  trigger?: DialogTrigger;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpen] = useOpenState(controlled, onOpenChange);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={trigger}
      title={reminder ? 'Edit Reminder' : 'Add Reminder'}
      preload={preloading(ReminderForm)}
    >
      <Suspense fallback={<Spinner className="mx-auto my-8 size-6" />}>
        <ReminderForm projectId={projectId} reminder={reminder} onDone={() => setOpen(false)} />
      </Suspense>
    </Dialog>
  );
}
