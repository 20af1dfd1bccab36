import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Input, Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { Textarea } from '../../ui/textarea';
import { useRecordBackup, useRecordDeployment, useRecordVersion } from './use-project-records';

/**
 * The record dialogs' forms (record-dialogs.tsx), loaded the first time one opens: react-hook-form and
 * the forms' code stay out of the project page's first load (decision 023).
 */
export interface RecordFormProps {
  projectId: string;
  /** Sent: the dialog closes at once, the entry already on the timeline (use-project-records.ts). */
  onDone: () => void;
}

export function RecordBackupForm({ projectId, onDone }: RecordFormProps) {
  const record = useRecordBackup(projectId);
  const form = useSchemaForm('recordBackupFormSchema', {
    defaultValues: { version: '', notes: '', location: '', size: '' },
  });
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        record.mutate({ version: v.version, notes: v.notes, backupDetails: { location: v.location, size: v.size } });
        onDone();
      })}
    >
      <TextField
        id="backup-version"
        label="Version (optional)"
        error={form.formState.errors.version?.message}
        {...form.register('version')}
      />
      <TextField
        id="backup-location"
        label="Backup location (optional)"
        error={form.formState.errors.location?.message}
        {...form.register('location')}
      />
      <TextField
        id="backup-size"
        label="Backup size (optional)"
        error={form.formState.errors.size?.message}
        {...form.register('size')}
      />
      <div className="space-y-2">
        <Label htmlFor="backup-notes">Notes (optional)</Label>
        <Textarea id="backup-notes" {...form.register('notes')} />
      </div>
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        Record Backup
      </Button>
    </form>
  );
}

export function RecordDeploymentForm({ projectId, onDone }: RecordFormProps) {
  const record = useRecordDeployment(projectId);
  const form = useSchemaForm('recordDeploymentFormSchema', {
    defaultValues: { environment: 'production', version: '', url: '', notes: '', method: '' },
  });
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        record.mutate({
          environment: v.environment,
          version: v.version,
          url: v.url,
          notes: v.notes,
          deploymentDetails: { method: v.method, duration: null },
        });
        onDone();
      })}
    >
      <div className="space-y-2">
        <Label htmlFor="deployment-environment">Environment</Label>
        <Select id="deployment-environment" className="w-full" {...form.register('environment')}>
          <option value="development">Development</option>
          <option value="staging">Staging</option>
          <option value="production">Production</option>
        </Select>
      </div>
      <TextField
        id="deployment-version"
        label="Version (optional)"
        error={form.formState.errors.version?.message}
        {...form.register('version')}
      />
      <TextField
        id="deployment-url"
        label="URL (optional)"
        placeholder="https://"
        error={form.formState.errors.url?.message}
        {...form.register('url')}
      />
      <TextField
        id="deployment-method"
        label="Method (optional)"
        placeholder="CI, manual, …"
        error={form.formState.errors.method?.message}
        {...form.register('method')}
      />
      <div className="space-y-2">
        <Label htmlFor="deployment-notes">Notes (optional)</Label>
        <Textarea id="deployment-notes" {...form.register('notes')} />
      </div>
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        Record Deployment
      </Button>
    </form>
  );
}

export function RecordVersionForm({ projectId, onDone }: RecordFormProps) {
  const [changes, setChanges] = useState<{ key: number; text: string }[]>([]);
  const [draft, setDraft] = useState('');
  const record = useRecordVersion(projectId);
  const form = useSchemaForm('recordVersionFormSchema', {
    defaultValues: { version: '', notes: '' },
  });
  // Changes are added one at a time; a blank one is ignored.
  const addChange = () => {
    if (draft.trim()) setChanges((list) => [...list, { key: Date.now() + list.length, text: draft.trim() }]);
    setDraft('');
  };
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        // A change typed but not yet added (Enter or +) is recorded too: it is what the user meant.
        const typed = draft.trim() ? [draft.trim()] : [];
        record.mutate({ version: v.version, notes: v.notes, changes: [...changes.map((c) => c.text), ...typed] });
        onDone();
      })}
    >
      <TextField
        id="version-version"
        label="Version"
        placeholder="1.0.0"
        error={form.formState.errors.version?.message}
        {...form.register('version')}
      />
      <div className="space-y-2">
        <Label htmlFor="version-notes">Notes (optional)</Label>
        <Textarea id="version-notes" {...form.register('notes')} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="version-change">Changes</Label>
        <div className="flex gap-2">
          <Input
            id="version-change"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addChange();
              }
            }}
            placeholder="What changed?"
          />
          <Button type="button" variant="outline" onClick={addChange} aria-label="Add change">
            <Plus />
          </Button>
        </div>
        <ul className="space-y-1">
          {changes.map((change) => (
            <li key={change.key} className="flex items-center justify-between rounded-md bg-muted px-3 py-1.5 text-sm">
              {change.text}
              <Button
                type="button"
                variant="ghost"
                size="sm"
                aria-label={`Remove ${change.text}`}
                onClick={() => setChanges((list) => list.filter((c) => c.key !== change.key))}
              >
                <X />
              </Button>
            </li>
          ))}
        </ul>
      </div>
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        Record Release
      </Button>
    </form>
  );
}
