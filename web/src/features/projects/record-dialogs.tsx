import { Archive, Rocket, Tag } from 'lucide-react';
import { type ComponentType, Suspense } from 'react';
import { lazyPart, preloading } from '../../lib/on-demand';
import { Button } from '../../ui/button';
import { Dialog, type DialogTrigger, useOpenState } from '../../ui/dialog';
import { Spinner } from '../../ui/spinner';
import type { RecordFormProps } from './record-forms';

// The forms, with react-hook-form, load when a dialog first opens (or its button is pointed at).
const BackupForm = lazyPart(() => import('./record-forms'), 'RecordBackupForm');
const DeploymentForm = lazyPart(() => import('./record-forms'), 'RecordDeploymentForm');
const VersionForm = lazyPart(() => import('./record-forms'), 'RecordVersionForm');
/** The three forms are one module: pointing at any of the buttons loads it. */
export const preloadRecordForms = preloading(BackupForm);

export type RecordKind = 'backup' | 'deployment' | 'version';

/** What each kind of record is called, and its form: the project page's buttons and the command palette use these. */
export const recordKinds: Record<
  RecordKind,
  { title: string; label: string; icon: ComponentType; form: ComponentType<RecordFormProps> }
> = {
  backup: { title: 'Record Backup', label: 'Record Backup', icon: Archive, form: BackupForm },
  deployment: { title: 'Record Deployment', label: 'Record Deployment', icon: Rocket, form: DeploymentForm },
  version: { title: 'Record Version Release', label: 'Record Version', icon: Tag, form: VersionForm },
};

/** A record's dialog: opened by its button (`trigger`), or by its owner (`open`, `onOpenChange`). */
export function RecordDialog({
  projectId,
  kind,
  trigger,
  open: controlled,
  onOpenChange,
}: {
  projectId: string;
  kind: RecordKind;
  trigger?: DialogTrigger;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpen] = useOpenState(controlled, onOpenChange);
  const { title, form: Form } = recordKinds[kind];
  return (
    <Dialog open={open} onOpenChange={setOpen} trigger={trigger} title={title} preload={preloadRecordForms}>
      <Suspense fallback={<Spinner className="mx-auto my-8 size-6" />}>
        <Form projectId={projectId} onDone={() => setOpen(false)} />
      </Suspense>
    </Dialog>
  );
}

/** The project page's Record buttons, one per kind. */
export function RecordButtonDialog({ projectId, kind }: { projectId: string; kind: RecordKind }) {
  const { label, icon: Icon } = recordKinds[kind];
  return (
    <RecordDialog
      projectId={projectId}
      kind={kind}
      trigger={
        <Button variant="outline">
          <Icon /> {label}
        </Button>
      }
    />
  );
}
