import type { Project } from '@shiplog/schemas';
import { useNavigate } from '@tanstack/react-router';
import { Eye, Pencil, Trash2 } from 'lucide-react';
import { type ComponentType, useState } from 'react';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../ui/dropdown-menu';
import { DeleteProjectDialog } from './delete-project';
import { canChange } from './spaces';

/**
 * A card's menu: View Details, Edit Project, Delete Project with its confirmation (spec/core.md §2);
 * View Details alone on a team project the user only views. Loaded on first use (project-card.tsx),
 * which hands it its button as `Trigger`.
 */
export function ProjectActions({
  project,
  defaultOpen,
  Trigger,
}: {
  project: Project;
  defaultOpen?: boolean;
  Trigger: ComponentType<{ project: Project }>;
}) {
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  return (
    <>
      <DropdownMenu defaultOpen={defaultOpen}>
        <DropdownMenuTrigger asChild>
          <Trigger project={project} />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => navigate({ to: '/projects/$id', params: { id: project.id } })}>
            <Eye /> View Details
          </DropdownMenuItem>
          {canChange(project) ? (
            <>
              <DropdownMenuItem onSelect={() => navigate({ to: '/projects/edit/$id', params: { id: project.id } })}>
                <Pencil /> Edit Project
              </DropdownMenuItem>
              <DropdownMenuItem
                className="text-destructive focus:text-destructive"
                onSelect={() => setConfirmDelete(true)}
              >
                <Trash2 /> Delete Project
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      {canChange(project) ? (
        <DeleteProjectDialog project={project} open={confirmDelete} onOpenChange={setConfirmDelete} />
      ) : null}
    </>
  );
}
