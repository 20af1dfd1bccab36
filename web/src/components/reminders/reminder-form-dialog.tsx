import type { Reminder } from '@shiplog/schemas';
import { lazy, Suspense, useState } from 'react';
import { Dialog, type DialogTrigger } from '../ui/dialog';
import { Spinner } from '../ui/spinner';

// The form, with react-hook-form, loads when the dialog first opens (or its button is pointed at).
const loadForm = () => import('./reminder-form');
const ReminderForm = lazy(async () => ({ default: (await loadForm()).ReminderForm }));

export function ReminderFormDialog({
  projectId,
  reminder,
  trigger,
}: {
  projectId: string;
  reminder?: Reminder;
  trigger: DialogTrigger;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={trigger}
      title={reminder ? 'Edit Reminder' : 'Add Reminder'}
      preload={loadForm}
    >
      <Suspense fallback={<Spinner className="mx-auto my-8 size-6" />}>
        <ReminderForm projectId={projectId} reminder={reminder} onDone={() => setOpen(false)} />
      </Suspense>
    </Dialog>
  );
}
