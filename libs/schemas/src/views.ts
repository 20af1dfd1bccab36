import { z } from 'zod';
import { checklistKeys, projectStatuses, socialLinkKeys } from './project-values.ts';
import { reminderTimes } from './reminder-values.ts';
import { reminderFrequencies } from './reminders.ts';
import { subscriptionStatuses } from './subscription-values.ts';
import { workspaceRoles } from './workspace-values.ts';

/**
 * What the API answers, for the records every client reads: their types are these schemas' output, and
 * the OpenAPI document (gateway `openapi/`) describes the answers with them, so the contract and the
 * code cannot part. Objects are closed: a field the server adds or renames fails the contract tests
 * until it is described here. The web app imports only their types, so none of this reaches its bundle.
 */
const timestamp = z.iso.datetime({ offset: true });
const id = z.string().min(1);

/** The fixed error body (ARCHITECTURE.md): `fieldErrors` names each invalid field with its messages. */
export const errorBodyView = z.object({
  message: z.string(),
  code: z.string(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  /** The assistant's errors repeat the message here. */
  error: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodyView>;

/** A project as `GET /api/projects/{id}` answers it (spec/core.md §3). Cost is in cents. */
export const projectView = z.object({
  id,
  userId: id,
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(projectStatuses),
  checklist: z.object(
    Object.fromEntries(checklistKeys.map((k) => [k, z.boolean()])) as Record<
      (typeof checklistKeys)[number],
      z.ZodBoolean
    >,
  ),
  costEstimate: z.number().int().nullable(),
  replitId: z.string().nullable(),
  isPublic: z.boolean(),
  metadata: z.object({
    socialLinks: z.object(
      Object.fromEntries(socialLinkKeys.map((k) => [k, z.string().optional()])) as Record<
        (typeof socialLinkKeys)[number],
        z.ZodOptional<z.ZodString>
      >,
    ),
  }),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** The team workspace it belongs to; null: its maker's personal space. */
  workspaceId: id.nullable().optional(),
  /** The reader's role on it: `owner` of their own personal project, else their role in its workspace. */
  role: z.enum(workspaceRoles).optional(),
});
export type Project = z.infer<typeof projectView>;

/** A timeline row as `GET /api/activities` answers it (spec/core.md §3 activities). */
/**
 * Who did it: the user whose request made an entry (their name null once their account is deleted),
 * and the API token's name when one made it; null for a platform, a webhook or Shiplog's own checks.
 */
export const activityActorView = z
  .object({ userId: id, username: z.string().nullable(), token: z.string().nullable() })
  .nullable();
export type ActivityActor = z.infer<typeof activityActorView>;

export const activityView = z.object({
  id,
  userId: id,
  actor: activityActorView,
  projectId: id.nullable(),
  eventType: z.string(),
  action: z.string(),
  details: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  version: z.string().nullable(),
  status: z.string(),
  timestamp,
});
export type Activity = z.infer<typeof activityView>;

/** A reminder as `GET /api/reminders/{id}` answers it (spec/core.md §6). */
export const reminderView = z.object({
  id,
  userId: id,
  /** Who it reaches: its emails, push and calendar feed go to them (its author unless given to another member). */
  assigneeId: id,
  /** The assignee's username, in what the lists and `GET /api/reminders/{id}` read (not in a change's answer). */
  assigneeName: z.string().nullable().optional(),
  projectId: id,
  projectName: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  dueDate: timestamp,
  reminderTimes: z.array(z.enum(reminderTimes)),
  frequency: z.enum(reminderFrequencies),
  isCompleted: z.boolean(),
  /** When each reminder time's message went out, by reminder time. */
  emailsSent: z.record(z.string(), z.string()),
  lastSentAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Reminder = z.infer<typeof reminderView>;

/** The current user as `GET /api/user` answers it (ARCHITECTURE.md). */
export const currentUserView = z.object({
  id,
  username: z.string(),
  email: z.string().nullable(),
  subscriptionStatus: z.enum(subscriptionStatuses).nullable(),
  trialEndDate: timestamp.nullable(),
  isAdmin: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserView>;

/** A token as the list shows it; its text is in the answer to its creation only. */
export const apiTokenView = z.object({
  id,
  name: z.string(),
  createdAt: timestamp,
  /** When it stops working; null: never. */
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
  /** `read`: its writes are refused; `write`: it changes what its user may change. */
  scope: z.enum(['read', 'write']),
  /** The one space it reaches: a workspace's id, or `personal`; null: every space its user reaches. */
  workspaceId: z.string().nullable(),
});
export type ApiTokenView = z.infer<typeof apiTokenView>;

/** The answer of a call that changes something with nothing else to say: `{ "message": "Logged out" }`. */
export const messageView = z.object({ message: z.string() });
