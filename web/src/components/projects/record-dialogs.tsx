import { Archive, Rocket, Tag } from 'lucide-react';
import { type ComponentType, Suspense, useState } from 'react';
import { lazyPart, preloading } from '../../lib/on-demand';
import { Button } from '../ui/button';
import { Dialog, type DialogTrigger } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import type { RecordFormProps } from './record-forms';

// The forms, with react-hook-form, load when a dialog first opens (or its button is pointed at).
const BackupForm = lazyPart(() => import('./record-forms'), 'RecordBackupForm');
const DeploymentForm = lazyPart(() => import('./record-forms'), 'RecordDeploymentForm');
const VersionForm = lazyPart(() => import('./record-forms'), 'RecordVersionForm');
/** The three forms are one module: pointing at any of the buttons loads it. */
const preloadForms = preloading(BackupForm);

function RecordDialog({
  projectId,
  title,
  trigger,
  form: Form,
}: {
  projectId: string;
  title: string;
  trigger: DialogTrigger;
  form: ComponentType<RecordFormProps>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen} trigger={trigger} title={title} preload={preloadForms}>
      <Suspense fallback={<Spinner className="mx-auto my-8 size-6" />}>
        <Form projectId={projectId} onDone={() => setOpen(false)} />
      </Suspense>
    </Dialog>
  );
}

export function RecordBackupDialog({ projectId }: { projectId: string }) {
  return (
    <RecordDialog
      projectId={projectId}
      title="Record Backup"
      form={BackupForm}
      trigger={
        <Button variant="outline">
          <Archive /> Record Backup
        </Button>
      }
    />
  );
}

export function RecordDeploymentDialog({ projectId }: { projectId: string }) {
  return (
    <RecordDialog
      projectId={projectId}
      title="Record Deployment"
      form={DeploymentForm}
      trigger={
        <Button variant="outline">
          <Rocket /> Record Deployment
        </Button>
      }
    />
  );
}

export function RecordVersionDialog({ projectId }: { projectId: string }) {
  return (
    <RecordDialog
      projectId={projectId}
      title="Record Version Release"
      form={VersionForm}
      trigger={
        <Button variant="outline">
          <Tag /> Record Version
        </Button>
      }
    />
  );
}
