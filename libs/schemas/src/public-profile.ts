import type { Checklist, ProjectStatus } from './project-values.ts';

/** What the projects service gives of a public project (cost, Replit id and links stay private). */
export interface PublicProjectFields {
  id: string;
  name: string;
  description: string | null;
  status: ProjectStatus;
  checklist: Checklist;
  createdAt: string;
}

/** `GET /api/public/users/{username}`: a public profile and its public projects. */
export interface PublicProfile {
  username: string;
  displayName: string;
  bio: string | null;
  links: { github: string | null; twitter: string | null; linkedin: string | null; website: string | null };
  projects: PublicProject[];
}

export interface PublicProject {
  id: string;
  name: string;
  description: string | null;
  status: ProjectStatus;
  /** Checklist items done, of five. */
  progress: number;
  /** The latest successful deployment: where, which version, when. */
  latestDeployment: { environment: string | null; version: string | null; at: string } | null;
  /** The latest released version. */
  latestVersion: { version: string; at: string } | null;
  createdAt: string;
}

/** One release on a public changelog: its version, notes and changes, and when. */
export interface PublicRelease {
  version: string;
  notes: string | null;
  changes: string[];
  at: string;
}

/** `GET /api/public/users/{username}/projects/{projectId}/changelog`: a public project's releases, newest first. */
export interface PublicChangelog {
  username: string;
  displayName: string;
  project: { id: string; name: string; description: string | null };
  releases: PublicRelease[];
}
