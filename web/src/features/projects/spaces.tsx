import type { Project, WorkspaceRole } from '@shiplog/schemas';
import { Users } from 'lucide-react';
import { useEffect } from 'react';
import { cn } from '../../lib/class-names';
import { Select } from '../../ui/select';

/**
 * Spaces: a project is the user's own (personal) or one of a team workspace's. The project lists
 * filter by space (`?space=personal|<workspace id>`), the project form makes a project in one, and a
 * team project says its workspace, and whether the user only views it.
 */

/** A workspace as the space controls need it: the Team workspaces list, or the dashboard's answer. */
export interface Space {
  id: string;
  name: string;
  role: WorkspaceRole;
}

/** What the lists' `?space=` holds: `personal`, or a workspace's id; absent, every space. */
export type SpaceFilter = string | undefined;

/** Whether `project` is in `space` (every project when no space is chosen). */
export function inSpace(project: Pick<Project, 'workspaceId'>, space: SpaceFilter): boolean {
  if (!space) return true;
  if (space === 'personal') return !project.workspaceId;
  return project.workspaceId === space;
}

/**
 * The space to filter by: none while the user has no workspace (the control is hidden), nor for a
 * workspace they are no longer in. While their workspaces load, the one asked for.
 */
export function knownSpace(space: SpaceFilter, workspaces: readonly Space[] | undefined): SpaceFilter {
  if (!space || !workspaces) return space;
  if (space === 'personal') return workspaces.length > 0 ? space : undefined;
  return workspaces.some((workspace) => workspace.id === space) ? space : undefined;
}

/** Whether the user may change `project`: all but a team project they only view (the server says 403). */
export const canChange = (project: Pick<Project, 'role'>): boolean => project.role !== 'viewer';

/** The workspaces the user may make a project in: those where they are a member or more (not a viewer). */
export const writableSpaces = (workspaces: readonly Space[] | undefined): Space[] =>
  (workspaces ?? []).filter((workspace) => workspace.role !== 'viewer');

/** Why a team project offers no changes. */
export const VIEWER_NOTE = 'You can view this team project; ask an owner or admin to change it.';

let listed: SpaceFilter;

/** Notes the space the project list on screen shows: a new project starts in it (`listedSpace`). */
export function useListedSpace(space: SpaceFilter): void {
  useEffect(() => {
    listed = space;
  }, [space]);
}

/** The workspace the last project list shown was filtered to, if any: where New Project starts. */
export const listedSpace = (): string | undefined => (listed && listed !== 'personal' ? listed : undefined);

/** The lists' space filter: All spaces, Personal, each workspace. Nothing for a user without a workspace. */
export function SpaceFilterSelect({
  id,
  value,
  onChange,
  workspaces,
}: {
  id: string;
  value: SpaceFilter;
  onChange: (space: SpaceFilter) => void;
  workspaces: readonly Space[] | undefined;
}) {
  if (!workspaces || workspaces.length === 0) return null;
  return (
    <Select
      id={id}
      aria-label="Filter by space"
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value || undefined)}
    >
      <option value="">All spaces</option>
      <option value="personal">Personal</option>
      {workspaces.map((workspace) => (
        <option key={workspace.id} value={workspace.id}>
          {workspace.name}
        </option>
      ))}
    </Select>
  );
}

/** A team project's workspace, as a small badge by its name. */
export function WorkspaceBadge({ name, className }: { name: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex max-w-full items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium text-muted-foreground',
        className,
      )}
      data-testid="workspace-badge"
    >
      <Users className="size-3 shrink-0" aria-hidden />
      <span className="sr-only">Workspace: </span>
      <span className="truncate">{name}</span>
    </span>
  );
}

/**
 * "Viewer": the user reads this team project and changes nothing. Drawn as the workspace pages' role
 * badge (workspaces/roles.tsx), without that module: the dashboard's first load need not fetch it.
 */
export function ViewerBadge() {
  return <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">Viewer</span>;
}
