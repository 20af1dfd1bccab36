import { type ComponentType, useState } from 'react';
import { useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { FieldError, Label } from '../../ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '../../ui/popover';
import { Textarea } from '../../ui/textarea';
import { useQuickUpdate } from './use-projects';

/**
 * The Quick Update popover: notes, Redeployed, Backed Up (spec/core.md §4, §5). Loaded on first use
 * (quick-update.tsx), which hands it its button as `Trigger`.
 */
export function QuickUpdatePopover({
  projectId,
  defaultOpen = false,
  Trigger,
}: {
  projectId: string;
  defaultOpen?: boolean;
  Trigger: ComponentType<{ projectId: string }>;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const quickUpdate = useQuickUpdate();
  const form = useSchemaForm('quickUpdateFormSchema', {
    defaultValues: { notes: '', redeployed: false, backedUp: false },
  });

  const id = `quick-${projectId}`;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Trigger projectId={projectId} />
      </PopoverTrigger>
      <PopoverContent align="start">
        <form
          className="space-y-3"
          noValidate
          onSubmit={form.handleSubmit((values) =>
            quickUpdate.mutateAsync({ projectId, ...values }).then(() => {
              form.reset();
              setOpen(false);
            }),
          )}
        >
          <div className="space-y-2">
            <Label htmlFor={`${id}-notes`}>What changed?</Label>
            <Textarea
              id={`${id}-notes`}
              aria-invalid={Boolean(form.formState.errors.notes)}
              {...form.register('notes')}
            />
            <FieldError id={`${id}-notes-error`} message={form.formState.errors.notes?.message} />
          </div>
          {(['redeployed', 'backedUp'] as const).map((name) => (
            <div key={name} className="flex items-center gap-2">
              <Checkbox
                id={`${id}-${name}`}
                checked={form.watch(name)}
                onCheckedChange={(checked) => form.setValue(name, checked === true)}
              />
              <Label htmlFor={`${id}-${name}`}>{name === 'redeployed' ? 'Redeployed' : 'Backed Up'}</Label>
            </div>
          ))}
          <Button
            type="submit"
            size="sm"
            className="w-full"
            disabled={quickUpdate.isPending || form.formState.isSubmitting}
          >
            {quickUpdate.isPending ? 'Saving...' : 'Save Update'}
          </Button>
        </form>
      </PopoverContent>
    </Popover>
  );
}
