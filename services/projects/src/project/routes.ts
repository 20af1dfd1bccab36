import {
  createProjectSchema,
  moveProjectSchema,
  projectView,
  quickUpdateSchema,
  recordBackupSchema,
  recordDeploymentSchema,
  recordVersionSchema,
  updateProjectSchema,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** The timeline entry a record answers: its type and the recorded event's data. */
const recordedView = z.looseObject({ type: z.string() });

/** Projects, and what is recorded on them (answered in `api.ts`). */
export const projectRoutes = declareRoutes({
  'GET /projects': {
    tag: 'Projects',
    summary: 'The user’s projects, newest first',
    access: 'user',
    token: true,
    answer: z.array(projectView),
  },
  'POST /projects': {
    tag: 'Projects',
    summary: 'Create a project',
    description: 'An `Idempotency-Key` header makes a repeated request create the project once.',
    access: 'user',
    token: true,
    idempotent: true,
    body: createProjectSchema,
    status: 201,
    answer: projectView,
  },
  'GET /projects/:id': {
    tag: 'Projects',
    summary: 'One project',
    access: 'user',
    project: 'viewer',
    token: true,
    answer: projectView,
  },
  'PUT /projects/:id': {
    tag: 'Projects',
    summary: 'Change a project (any subset of its fields)',
    access: 'user',
    project: 'member',
    token: true,
    publicPages: true,
    body: updateProjectSchema,
    answer: projectView,
  },
  'DELETE /projects/:id': {
    tag: 'Projects',
    summary: 'Delete a project, its reminders and its timeline',
    access: 'user',
    project: 'member',
    token: true,
    publicPages: true,
    status: 204,
  },
  'POST /projects/:id/move': {
    tag: 'Projects',
    summary: 'Move a project to a team workspace, or to the caller’s personal space',
    description:
      'The caller is an owner or admin of both sides. Its records, reminders, monitors and links go with it; who can see and change it is the new space’s members.',
    access: 'user',
    project: 'admin',
    body: moveProjectSchema,
    answer: projectView,
  },
  'POST /projects/:id/backup': {
    tag: 'Timeline',
    summary: 'Record a backup',
    access: 'user',
    project: 'member',
    token: true,
    idempotent: true,
    body: recordBackupSchema,
    status: 201,
    answer: recordedView,
  },
  'POST /projects/:id/deployment': {
    tag: 'Timeline',
    summary: 'Record a deployment',
    access: 'user',
    project: 'member',
    token: true,
    idempotent: true,
    body: recordDeploymentSchema,
    status: 201,
    answer: recordedView,
  },
  'POST /projects/:id/version': {
    tag: 'Timeline',
    summary: 'Record a release',
    access: 'user',
    project: 'member',
    token: true,
    idempotent: true,
    body: recordVersionSchema,
    status: 201,
    answer: recordedView,
  },
  'POST /activities': {
    tag: 'Timeline',
    summary: 'Log a quick update (subscribers)',
    access: 'user',
    project: 'member',
    token: true,
    idempotent: true,
    body: quickUpdateSchema,
    status: 201,
    answer: recordedView,
  },
  // For a public profile page (the gateway's, which shows it only while the profile is public).
  'GET /public/users/:userId/projects': {
    summary: 'A user’s public projects',
    access: 'public',
    internal: true,
    answer: z.array(projectView),
  },
  // For a team's status page (the gateway's public-profile.ts).
  'GET /public/workspaces/:workspaceId/projects': {
    summary: 'A team workspace’s public projects',
    access: 'public',
    internal: true,
    answer: z.array(projectView),
  },
});
