import { ConflictError, ForbiddenError, NotFoundError } from '@shiplog/errors';
import {
  type Checklist,
  type ChecklistKey,
  type CreateProjectInput,
  checklistKeys,
  type DeploymentStatus,
  emptyChecklist,
  type ImportedProject,
  type RecordBackupInput,
  type RecordDeploymentInput,
  type RecordVersionInput,
  type SocialLinks,
  type UpdateProjectInput,
} from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';
import {
  type ActiveProject,
  type DeploymentSource,
  evolveProject,
  hookDeploymentKey,
  initialProject,
  type Project,
  type ProjectEvent,
} from './project.ts';

export type ProjectCommand =
  | { type: 'CreateProject'; projectId: string; userId: string; input: CreateProjectInput }
  /** From an export file; its id is derived from the file's, so the same project comes in once. */
  | { type: 'ImportProject'; projectId: string; userId: string; input: ImportedProject }
  | { type: 'UpdateProject'; userId: string; input: UpdateProjectInput }
  | { type: 'RecordBackup'; userId: string; input: RecordBackupInput }
  | {
      type: 'RecordDeployment';
      userId: string;
      input: Omit<RecordDeploymentInput, 'status'>;
      status: DeploymentStatus;
      /** Set when a deploy webhook reports it: a deployment the project already holds records nothing. */
      source: DeploymentSource | null;
    }
  | { type: 'ReleaseVersion'; userId: string; input: RecordVersionInput }
  | {
      type: 'LogQuickUpdate';
      userId: string;
      notes: string;
      redeployed: boolean;
      backedUp: boolean;
      /** The caller's plan, as billing holds it now: Quick Update is for subscribed users. */
      subscribed: boolean;
    }
  /**
   * To a team workspace, or (`to` null) to the mover's personal space. Who may was decided by the route:
   * an owner or admin of both sides (the maker, for a personal project).
   */
  | { type: 'MoveProject'; userId: string; to: string | null }
  | { type: 'DeleteProject'; userId: string }
  /** Its deploy webhook URL made (replacing one, or not) or turned off: the table holds the secret's hash. */
  | { type: 'MakeDeployHook'; userId: string; replaced: boolean }
  | { type: 'TurnOffDeployHook'; userId: string };

const notFound = () => new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');

export const SUBSCRIPTION_REQUIRED_MESSAGE =
  'Quick updates require an active subscription. Please upgrade to use this feature.';

/** A new project's fields, created or imported: the spec's defaults filled in. */
function newProject(input: CreateProjectInput) {
  return {
    name: input.name,
    description: input.description,
    status: input.status,
    checklist: { ...emptyChecklist(), ...input.checklist },
    costEstimate: input.costEstimate,
    replitId: input.replitId,
    isPublic: input.isPublic,
    socialLinks: input.metadata.socialLinks ?? {},
  };
}

/**
 * A deleted project and a missing one answer the same 404. Whether the caller may act on it was
 * decided by the route, from the role its declaration needs (`project`).
 */
function activeProject(state: Project): ActiveProject {
  if (state.lifecycle !== 'active') throw notFound();
  return state;
}

export function decideProject(command: ProjectCommand, state: Project, now: Date): ProjectEvent[] {
  const at = now.toISOString();
  if (command.type === 'CreateProject') {
    // The id was generated for this command: an existing stream is a conflict, never someone's project.
    if (state.lifecycle !== 'none') throw new ConflictError('Project already exists', 'PROJECT_EXISTS');
    const { input } = command;
    return [
      {
        type: 'ProjectCreated',
        data: {
          projectId: command.projectId,
          userId: command.userId,
          ...(input.workspaceId ? { workspaceId: input.workspaceId } : {}),
          ...newProject(input),
          createdAt: at,
        },
      },
    ];
  }

  if (command.type === 'ImportProject') {
    // Imported before (the same file again): nothing to do, whatever became of it since.
    if (state.lifecycle !== 'none') return [];
    const { input } = command;
    return [
      {
        type: 'ProjectImported',
        data: {
          projectId: command.projectId,
          userId: command.userId,
          importedFrom: input.id,
          ...newProject(input),
          createdAt: new Date(input.createdAt).toISOString(),
          updatedAt: new Date(input.updatedAt).toISOString(),
          at,
        },
      },
    ];
  }

  const project = activeProject(state);
  const base = { ...keyOf(project), name: project.name };
  switch (command.type) {
    case 'UpdateProject': {
      const { input } = command;
      const events: ProjectEvent[] = [];
      const changes: Extract<ProjectEvent, { type: 'ProjectUpdated' }>['data']['changes'] = {};
      if (input.name !== undefined && input.name !== project.name) changes.name = input.name;
      if (input.description !== undefined && input.description !== project.description)
        changes.description = input.description;
      if (input.costEstimate !== undefined && input.costEstimate !== project.costEstimate)
        changes.costEstimate = input.costEstimate;
      if (input.replitId !== undefined && input.replitId !== project.replitId) changes.replitId = input.replitId;
      if (input.isPublic !== undefined && input.isPublic !== project.isPublic) changes.isPublic = input.isPublic;
      const links = input.metadata?.socialLinks;
      if (links !== undefined && !sameLinks(links, project.socialLinks)) changes.socialLinks = links;
      const name = changes.name ?? project.name;
      if (Object.keys(changes).length > 0)
        events.push({ type: 'ProjectUpdated', data: { ...base, name, changes, at } });
      if (input.status !== undefined && input.status !== project.status) {
        events.push({
          type: 'ProjectStatusChanged',
          data: { ...base, name, from: project.status, to: input.status, at },
        });
      }
      const checklist = checklistChange(project.checklist, input.checklist ?? {}, name, base, 'toggle', at);
      if (checklist) events.push(checklist);
      return events;
    }
    case 'RecordBackup': {
      const { version, notes, backupDetails } = command.input;
      return withChecklist(project, { backedUp: true }, 'backup', at, {
        type: 'BackupRecorded',
        data: { ...base, version, notes, location: backupDetails.location, size: backupDetails.size, at },
      });
    }
    case 'RecordDeployment': {
      const { status, source } = command;
      if (source && project.hookDeployments.has(hookDeploymentKey(source, status))) return [];
      const { environment, version, url, notes, deploymentDetails, shipped } = command.input;
      // A failed deployment is on the timeline, but does not tick "Deployed".
      return withChecklist(project, status === 'success' ? { deployed: true } : {}, 'deployment', at, {
        type: 'DeploymentRecorded',
        data: {
          ...base,
          environment,
          version,
          url,
          notes,
          method: deploymentDetails.method,
          duration: deploymentDetails.duration,
          status,
          source,
          ...(shipped ? { shipped } : {}),
          at,
        },
      });
    }
    case 'ReleaseVersion': {
      const { version, notes, changes, shipped } = command.input;
      return [
        { type: 'VersionReleased', data: { ...base, version, notes, changes, ...(shipped ? { shipped } : {}), at } },
      ];
    }
    case 'LogQuickUpdate': {
      // Ownership first: someone else's project is a 404 whatever the caller's plan.
      if (!command.subscribed) throw new ForbiddenError(SUBSCRIPTION_REQUIRED_MESSAGE, 'SUBSCRIPTION_REQUIRED');
      // Ticking Redeployed sets "deployed", ticking Backed Up sets "backedUp" (spec/core.md §4).
      const flags: Partial<Checklist> = {
        ...(command.redeployed ? { deployed: true } : {}),
        ...(command.backedUp ? { backedUp: true } : {}),
      };
      return withChecklist(project, flags, 'quick_update', at, {
        type: 'QuickUpdateLogged',
        data: { ...base, notes: command.notes, redeployed: command.redeployed, backedUp: command.backedUp, at },
      });
    }
    case 'MoveProject': {
      const { userId, to } = command;
      // Already there: nothing to do (a move sent twice moves once).
      if (to === project.workspaceId && (to !== null || project.userId === userId)) return [];
      const moved = { ...project, workspaceId: to, userId: to === null ? userId : project.userId };
      return [
        { type: 'ProjectMovedOut', data: { ...base, to, movedBy: userId, at } },
        {
          type: 'ProjectMovedIn',
          data: {
            ...keyOf(moved),
            from: project.workspaceId,
            movedBy: userId,
            ...newProject({ ...project, metadata: { socialLinks: project.socialLinks } }),
            createdAt: project.createdAt,
            hookDeployments: [...project.hookDeployments],
            at,
          },
        },
      ];
    }
    case 'DeleteProject':
      return [{ type: 'ProjectDeleted', data: { ...base, at } }];
    case 'MakeDeployHook':
      return [{ type: 'DeployHookMade', data: { ...base, replaced: command.replaced, at } }];
    case 'TurnOffDeployHook':
      return [{ type: 'DeployHookTurnedOff', data: { ...base, at } }];
  }
}

type ChecklistCause = Extract<ProjectEvent, { type: 'ChecklistUpdated' }>['data']['cause'];

function checklistChange(
  current: Checklist,
  wanted: Partial<Checklist>,
  name: string,
  base: ReturnType<typeof keyOf>,
  cause: ChecklistCause,
  at: string,
): ProjectEvent | null {
  const changed: ChecklistKey[] = checklistKeys.filter((k) => wanted[k] !== undefined && wanted[k] !== current[k]);
  if (changed.length === 0) return null;
  return {
    type: 'ChecklistUpdated',
    data: { ...base, name, checklist: { ...current, ...wanted }, changed, cause, at },
  };
}

/** The recorded event, preceded by the checklist ticks it implies (when not already ticked). */
function withChecklist(
  project: ActiveProject,
  flags: Partial<Checklist>,
  cause: ChecklistCause,
  at: string,
  event: ProjectEvent,
): ProjectEvent[] {
  const base = keyOf(project);
  const checklist = checklistChange(project.checklist, flags, project.name, base, cause, at);
  return checklist ? [checklist, event] : [event];
}

/**
 * What every event of a project names: the project, its maker and, for a team workspace's, the
 * workspace, whose the events are (sealed with its key: see the catalog's `personal`).
 */
function keyOf(project: ActiveProject) {
  return {
    projectId: project.id,
    userId: project.userId,
    ...(project.workspaceId ? { workspaceId: project.workspaceId } : {}),
  };
}

function sameLinks(a: SocialLinks, b: SocialLinks): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof SocialLinks>;
  for (const key of keys) if ((a[key] ?? '') !== (b[key] ?? '')) return false;
  return true;
}

export const projectDecider: Decider<Project, ProjectCommand, ProjectEvent> = {
  initialState: initialProject,
  evolve: evolveProject,
  decide: decideProject,
};
