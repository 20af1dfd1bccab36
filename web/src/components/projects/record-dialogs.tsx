import { Archive, Rocket, Tag } from 'lucide-react';
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog, type DialogTrigger } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import type { RecordFormProps } from './record-forms';

// The forms, with react-hook-form, load when a dialog first opens (or its button is pointed at).
const loadForms = () => import('./record-forms');
const BackupForm = lazy(async () => ({ default: (await loadForms()).RecordBackupForm }));
const DeploymentForm = lazy(async () => ({ default: (await loadForms()).RecordDeploymentForm }));
const VersionForm = lazy(async () => ({ default: (await loadForms()).RecordVersionForm }));

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
    <Dialog open={open} onOpenChange={setOpen} trigger={trigger} title={title} preload={loadForms}>
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
