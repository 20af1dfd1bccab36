import type { EventOf } from '@shiplog/events';
import type { Checklist, DeploymentStatus, ProjectStatus, Project as ProjectView, SocialLinks } from '@shiplog/schemas';

export type ProjectEvent =
  | EventOf<'ProjectCreated'>
  | EventOf<'ProjectImported'>
  | EventOf<'ProjectUpdated'>
  | EventOf<'ProjectStatusChanged'>
  | EventOf<'ChecklistUpdated'>
  | EventOf<'BackupRecorded'>
  | EventOf<'DeploymentRecorded'>
  | EventOf<'VersionReleased'>
  | EventOf<'QuickUpdateLogged'>
  | EventOf<'ProjectMovedOut'>
  | EventOf<'ProjectMovedIn'>
  | EventOf<'ProjectDeleted'>
  | EventOf<'DeployHookMade'>
  | EventOf<'DeployHookTurnedOff'>;

export interface ActiveProject {
  lifecycle: 'active';
  id: string;
  /** Who made it. */
  userId: string;
  /** The team workspace it belongs to; null: its maker's personal space. */
  workspaceId: string | null;
  name: string;
  description: string | null;
  status: ProjectStatus;
  checklist: Checklist;
  costEstimate: number | null;
  replitId: string | null;
  isPublic: boolean;
  socialLinks: SocialLinks;
  createdAt: string;
  updatedAt: string;
  /**
   * The platforms' deployments a deploy webhook recorded (`platform:id`): each is recorded once. The
   * project list's documents do not keep it; only the command side decides on it.
   */
  hookDeployments: ReadonlySet<string>;
}

/** A project, folded from its `project-<id>` stream. */
export type Project = { lifecycle: 'none' } | ActiveProject | { lifecycle: 'deleted'; id: string; userId: string };

export const initialProject = (): Project => ({ lifecycle: 'none' });

/** A project as an event that holds all of it says (made, imported, or moved into a space). */
function wholeProject(
  d: EventOf<'ProjectCreated' | 'ProjectImported' | 'ProjectMovedIn'>['data'],
  updatedAt: string,
  hookDeployments: Iterable<string> = [],
): ActiveProject {
  return {
    lifecycle: 'active',
    id: d.projectId,
    userId: d.userId,
    workspaceId: d.workspaceId ?? null,
    name: d.name,
    description: d.description,
    status: d.status,
    checklist: d.checklist,
    costEstimate: d.costEstimate,
    replitId: d.replitId,
    isPublic: d.isPublic,
    socialLinks: d.socialLinks,
    createdAt: d.createdAt,
    updatedAt,
    hookDeployments: new Set(hookDeployments),
  };
}

export function evolveProject(state: Project, event: ProjectEvent): Project {
  if (event.type === 'ProjectCreated') return wholeProject(event.data, event.data.createdAt);
  if (event.type === 'ProjectImported') return wholeProject(event.data, event.data.updatedAt);
  // The whole project, in its new space: the events before it may be sealed with a key since destroyed.
  if (event.type === 'ProjectMovedIn') return wholeProject(event.data, event.data.at, event.data.hookDeployments);
  if (state.lifecycle !== 'active') return state;
  switch (event.type) {
    case 'ProjectUpdated':
      return { ...state, ...event.data.changes, updatedAt: event.data.at };
    case 'ProjectStatusChanged':
      return { ...state, status: event.data.to, updatedAt: event.data.at };
    case 'ChecklistUpdated':
      return { ...state, checklist: event.data.checklist, updatedAt: event.data.at };
    case 'DeploymentRecorded': {
      const { source, status, at } = event.data;
      if (!source) return { ...state, updatedAt: at };
      return {
        ...state,
        hookDeployments: new Set(state.hookDeployments).add(hookDeploymentKey(source, status)),
        updatedAt: at,
      };
    }
    // What it was until it moved in: ProjectMovedIn, in the same append, says where it is now.
    case 'ProjectMovedOut':
      return state;
    // Its deploy webhook is a credential beside it, not a change of the project.
    case 'DeployHookMade':
    case 'DeployHookTurnedOff':
      return state;
    case 'BackupRecorded':
    case 'VersionReleased':
    case 'QuickUpdateLogged':
      return { ...state, updatedAt: event.data.at };
    case 'ProjectDeleted':
      return { lifecycle: 'deleted', id: state.id, userId: state.userId };
  }
}

/** The API's shape of a project (spec/core.md §3). */
export function toView(project: ActiveProject): ProjectView {
  return {
    id: project.id,
    userId: project.userId,
    name: project.name,
    description: project.description,
    status: project.status,
    checklist: project.checklist,
    costEstimate: project.costEstimate,
    replitId: project.replitId,
    isPublic: project.isPublic,
    metadata: { socialLinks: project.socialLinks },
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    workspaceId: project.workspaceId,
  };
}

/** A project as the list keeps it: its document, and the workspace it belongs to (kept beside it). */
export function fromView(view: ProjectView, workspaceId: string | null): ActiveProject {
  const { metadata, role: _role, ...rest } = view;
  return { lifecycle: 'active', ...rest, workspaceId, socialLinks: metadata.socialLinks, hookDeployments: new Set() };
}

export type DeploymentSource = NonNullable<EventOf<'DeploymentRecorded'>['data']['source']>;
/**
 * A platform's deployment, recorded once: its start once, and its end (success or failure) once, so
 * a retried delivery records nothing more and a start does not hide the end.
 */
export const hookDeploymentKey = (source: DeploymentSource, status: DeploymentStatus) =>
  `${source.platform}:${source.deploymentId}${status === 'started' ? ':started' : ''}`;

export const projectStream = (projectId: string) => `project-${projectId}`;
