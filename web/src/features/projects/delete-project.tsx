import { useNavigate } from '@tanstack/react-router';
import { ConfirmDialog } from '../../ui/dialog';
import { useDeleteProject } from './use-projects';

/** Delete with the spec's confirmation (its toasts, and the Undo, are the mutation's); optionally goes somewhere afterwards. */
export function DeleteProjectDialog({
  project,
  open,
  onOpenChange,
  goTo,
}: {
  project: { id: string; name: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  goTo?: '/projects';
}) {
  const remove = useDeleteProject();
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Are you sure?"
      description={`This will permanently delete the project "${project.name}" and all associated data. This action cannot be undone.`}
      confirmLabel="Delete"
      onConfirm={async () => {
        remove.mutate(project.id);
        onOpenChange(false);
        if (goTo) await navigate({ to: goTo });
      }}
    />
  );
}
