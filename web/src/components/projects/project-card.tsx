import type { ChecklistKey, Project } from '@shiplog/schemas';
import { Link, useNavigate } from '@tanstack/react-router';
import { Eye, MoreVertical, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useUpdateProject } from '../../hooks/use-projects';
import { formatCost, formatDate } from '../../lib/format';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Checkbox } from '../ui/checkbox';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../ui/dropdown-menu';
import { toast } from '../ui/toast';
import { DeleteProjectDialog } from './delete-project';
import { ProjectIcon } from './project-icon';
import { QuickUpdate } from './quick-update';
import { StatusBadge } from './status-badge';

const cardChecklist: { key: ChecklistKey; label: string }[] = [
  { key: 'databaseAdded', label: 'Database added' },
  { key: 'authenticationAdded', label: 'Authentication' },
  { key: 'deployed', label: 'Deployed' },
];

export function ProjectCard({ project }: { project: Project }) {
  const navigate = useNavigate();
  const update = useUpdateProject(project.id);
  const [confirmDelete, setConfirmDelete] = useState(false);

  // A tick saves at once with all five flags; the boxes wait while it saves.
  const toggle = (key: ChecklistKey, value: boolean) =>
    update.mutate(
      { id: project.id, ...project.checklist, [key]: value },
      {
        onError: (error) =>
          toast({ title: 'Error', description: `Failed to update project: ${error.message}`, variant: 'destructive' }),
      },
    );

  return (
    <Card className="flex flex-col gap-4 p-5" data-testid="project-card">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
          <ProjectIcon name={project.name} className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <Link to="/projects/$id" params={{ id: project.id }} className="block truncate font-semibold hover:underline">
            {project.name}
          </Link>
          <StatusBadge status={project.status} />
        </div>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label={`Actions for ${project.name}`}>
              <MoreVertical />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => navigate({ to: '/projects/$id', params: { id: project.id } })}>
              <Eye /> View Details
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => navigate({ to: '/projects/edit/$id', params: { id: project.id } })}>
              <Pencil /> Edit Project
            </DropdownMenuItem>
            <DropdownMenuItem
              className="text-destructive focus:text-destructive"
              onSelect={() => setConfirmDelete(true)}
            >
              <Trash2 /> Delete Project
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <p className="line-clamp-2 text-sm text-muted-foreground">{project.description || 'No description provided.'}</p>
      <fieldset className="space-y-2" aria-label={`${project.name} checklist`}>
        {cardChecklist.map(({ key, label }) => {
          const id = `${project.id}-${key}`;
          return (
            <div key={key} className="flex items-center gap-2">
              <Checkbox
                id={id}
                checked={project.checklist[key]}
                disabled={update.isPending}
                onCheckedChange={(checked) => toggle(key, checked === true)}
              />
              <label htmlFor={id} className="text-sm">
                {label}
              </label>
            </div>
          );
        })}
      </fieldset>
      <dl className="grid grid-cols-2 gap-2 border-t pt-3 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">Created</dt>
          <dd>{formatDate(project.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Cost Est.</dt>
          <dd>{formatCost(project.costEstimate)}</dd>
        </div>
      </dl>
      <QuickUpdate projectId={project.id} />
      <DeleteProjectDialog project={project} open={confirmDelete} onOpenChange={setConfirmDelete} />
    </Card>
  );
}
