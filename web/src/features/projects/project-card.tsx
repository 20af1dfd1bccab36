import type { ChecklistKey, MonitorState, MonitorSummary, Project } from '@shiplog/schemas';
import { Link } from '@tanstack/react-router';
import { MoreVertical } from 'lucide-react';
import { type ComponentProps, type ComponentType, memo } from 'react';
import { cn } from '../../lib/class-names';
import { formatCost, formatDate } from '../../lib/format';
import { onDemand } from '../../lib/on-demand';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { Checkbox } from '../../ui/checkbox';
import { ProjectIcon } from './project-icon';
import { QuickUpdate, QuickUpdateHint, useSubscribed } from './quick-update';
import { canChange, type Space, VIEWER_NOTE, ViewerBadge, WorkspaceBadge } from './spaces';
import { StatusBadge } from './status-badge';
import { useUpdateProject } from './use-projects';

const cardChecklist: { key: ChecklistKey; label: string }[] = [
  { key: 'databaseAdded', label: 'Database added' },
  { key: 'authenticationAdded', label: 'Authentication' },
  { key: 'deployed', label: 'Deployed' },
];

/**
 * The cards of a project list, with the Quick Update hint once above them unless the user subscribes;
 * each card shows its project's monitors' state when it has any, its workspace's name when it is a
 * team project (`workspaces`: the user's), and `Select` first (My Projects' selection box).
 */
export function ProjectGrid({
  projects,
  monitors = [],
  workspaces,
  Select,
}: {
  projects: Project[];
  monitors?: MonitorSummary[];
  workspaces?: readonly Space[];
  Select?: ComponentType<{ project: Project }>;
}) {
  const subscribed = useSubscribed();
  const names = new Map(workspaces?.map((workspace) => [workspace.id, workspace.name]));
  return (
    <div className="space-y-3">
      {/* A team project's Quick Update is its owners' plan's: the hint is for the user's own projects. */}
      {subscribed || (projects.length > 0 && projects.every((p) => p.workspaceId)) ? null : <QuickUpdateHint />}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {projects.map((project) => (
          <ProjectCard
            key={project.id}
            project={project}
            // A team project's Quick Update follows its owners' plan, which the server knows.
            subscribed={subscribed || Boolean(project.workspaceId)}
            workspaceName={project.workspaceId ? names.get(project.workspaceId) : undefined}
            monitored={worstState(monitors.filter((m) => m.projectId === project.id))}
            Select={Select}
          />
        ))}
      </div>
    </div>
  );
}

/**
 * What a project's monitors add up to: down if any is, else failing, unchecked or degraded, else up if
 * any is, else pending or paused.
 */
function worstState(monitors: MonitorSummary[]): MonitorState | null {
  for (const state of ['down', 'failing', 'unchecked', 'degraded', 'up', 'pending', 'paused'] as const)
    if (monitors.some((m) => m.state === state)) return state;
  return null;
}

/** Slow and paused: neither down nor quite up. */
const amber = 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200';
const monitorBadges: Record<MonitorState, { label: string; className: string }> = {
  down: { label: 'Down', className: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-200' },
  up: { label: 'Up', className: 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-200' },
  degraded: { label: 'Slow', className: amber },
  failing: { label: 'Failing', className: amber },
  unchecked: { label: 'Can’t check', className: amber },
  pending: { label: 'Checking', className: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200' },
  paused: { label: 'Paused', className: amber },
};

export function ProjectActionsButton({ project, ...props }: { project: Project } & ComponentProps<'button'>) {
  return (
    <Button variant="ghost" size="icon" aria-label={`Actions for ${project.name}`} {...props}>
      <MoreVertical />
    </Button>
  );
}

/** The card's menu and its delete confirmation (project-actions.tsx) load on first use. */
const ProjectActions = onDemand(() => import('./project-actions').then((m) => m.ProjectActions), ProjectActionsButton);

/** Memoised: a list re-rendered (a search typed, another card ticked) redraws only the cards that changed. */
export const ProjectCard = memo(function ProjectCard({
  project,
  subscribed,
  workspaceName,
  monitored,
  Select,
}: {
  project: Project;
  subscribed: boolean;
  /** Its workspace's name, for a team project. */
  workspaceName?: string;
  /** Its monitors' state, null when it has none. */
  monitored: MonitorState | null;
  Select?: ComponentType<{ project: Project }>;
}) {
  const update = useUpdateProject(project.id);
  // A viewer of a team project is offered nothing that changes it: the server would refuse it.
  const changeable = canChange(project);

  // A tick shows at once and is saved with all five flags; the boxes are disabled while it is saved
  // (spec/core.md §4), and ticks made before that shows are sent in the order made.
  const toggle = (key: ChecklistKey, value: boolean) => update.mutate({ [key]: value });

  return (
    <Card
      className="flex flex-col gap-4 p-5 [contain-intrinsic-size:auto_18rem] [content-visibility:auto]"
      data-testid="project-card"
    >
      <div className="flex items-start gap-3">
        {Select && changeable ? <Select project={project} /> : null}
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
          <ProjectIcon name={project.name} className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <Link to="/projects/$id" params={{ id: project.id }} className="block truncate font-semibold hover:underline">
            {project.name}
          </Link>
          <div className="flex flex-wrap items-center gap-1.5">
            <StatusBadge status={project.status} />
            {monitored ? (
              <span
                className={cn(
                  'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
                  monitorBadges[monitored].className,
                )}
                data-testid="monitor-state"
              >
                <span className="sr-only">Monitors: </span>
                {monitorBadges[monitored].label}
              </span>
            ) : null}
            {workspaceName ? <WorkspaceBadge name={workspaceName} /> : null}
            {changeable ? null : <ViewerBadge />}
          </div>
        </div>
        <ProjectActions project={project} />
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
                busy={update.isPending}
                disabled={!changeable}
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
      {changeable ? (
        <QuickUpdate projectId={project.id} subscribed={subscribed} />
      ) : (
        <p className="text-xs text-muted-foreground">{VIEWER_NOTE}</p>
      )}
    </Card>
  );
});
