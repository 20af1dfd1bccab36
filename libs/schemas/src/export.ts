import { z } from 'zod';
import { activityStatuses, EXPORT_FORMAT } from './export-values.ts';
import { createProjectSchema } from './projects.ts';
import { createReminderSchema } from './reminders.ts';

// Export files read back (`POST /api/import`); their shapes without zod are in export-values.ts.

const sourceId = z
  .string({ error: 'id is required' })
  .min(1, 'id is required')
  .max(100, 'id must be at most 100 characters');
const isoTime = z.iso.datetime({ offset: true, error: 'Must be a date and time (ISO 8601)' });

/** A project of an export file, as `GET /api/projects` answers it (`userId` is not read). */
export const importedProjectSchema = createProjectSchema.extend({
  id: sourceId,
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** A reminder of an export file, as `GET /api/reminders` answers it; its project is one of the file's. */
export const importedReminderSchema = createReminderSchema.extend({
  id: sourceId,
  projectId: sourceId,
  emailsSent: z.record(z.string().max(100), isoTime).optional().default({}),
  lastSentAt: isoTime.nullable().optional().default(null),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/**
 * A timeline entry's metadata: what the timeline writes is at most two levels deep (a checklist in
 * it, a deployment's source), so an import takes three, and no more than 10,000 characters of it. The
 * depth is bounded before anything walks it: a deeply nested value cannot exhaust the stack.
 */
const leaf = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const level = <T extends z.ZodType>(inner: T) => z.union([inner, z.array(inner), z.record(z.string(), inner)]);
const metadataSchema = z
  .record(z.string(), level(level(leaf)), { error: 'metadata must be an object' })
  .refine((metadata) => JSON.stringify(metadata).length <= 10_000, 'metadata must be at most 10,000 characters');

/** A timeline entry of an export file, as `GET /api/activities` answers it. */
export const importedActivitySchema = z.object({
  id: sourceId,
  projectId: sourceId.nullable().optional().default(null),
  eventType: z.string({ error: 'eventType is required' }).min(1, 'eventType is required').max(50),
  action: z.string({ error: 'action is required' }).max(50),
  details: z.string({ error: 'details is required' }).max(10_000),
  metadata: metadataSchema.optional().default({}),
  version: z.string().max(100).nullable().optional().default(null),
  status: z.enum(activityStatuses).optional().default('success'),
  timestamp: isoTime,
  // Who did it, as the export wrote it: the file is its user's own history, so an entry a user made is
  // theirs again (with its token's name); null, or absent from an older file, is nobody's.
  actor: z
    .object({ token: z.string().max(100).nullable().optional().default(null) }, { error: 'actor must be an object' })
    .nullable()
    .optional()
    .default(null),
});

export type ImportedProject = z.infer<typeof importedProjectSchema>;
export type ImportedReminder = z.infer<typeof importedReminderSchema>;
export type ImportedActivity = z.infer<typeof importedActivitySchema>;

/** The most an import takes at once (the body may be up to 20 MB). */
export const IMPORT_LIMITS = { projects: 2_000, reminders: 10_000, activities: 50_000 } as const;

/**
 * `POST /api/import`: a file `GET /api/export` wrote. Every reminder's and entry's project must be
 * one of the file's projects (an entry of a deleted project has none).
 */
export const importFileSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT, { error: 'This is not a Shiplog export file' }),
    version: z.literal(1, { error: 'This export file version is not supported' }),
    projects: z
      .array(importedProjectSchema, { error: 'projects must be a list' })
      .max(IMPORT_LIMITS.projects, `An import takes at most ${IMPORT_LIMITS.projects} projects`),
    reminders: z
      .array(importedReminderSchema, { error: 'reminders must be a list' })
      .max(IMPORT_LIMITS.reminders, `An import takes at most ${IMPORT_LIMITS.reminders} reminders`)
      .optional()
      .default([]),
    activities: z
      .array(importedActivitySchema, { error: 'activities must be a list' })
      .max(IMPORT_LIMITS.activities, `An import takes at most ${IMPORT_LIMITS.activities} timeline entries`)
      .optional()
      .default([]),
  })
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    file.projects.forEach((project, index) => {
      if (ids.has(project.id))
        ctx.addIssue({ code: 'custom', path: ['projects', index, 'id'], message: 'Two projects have this id' });
      ids.add(project.id);
    });
    file.reminders.forEach((reminder, index) => {
      if (!ids.has(reminder.projectId))
        ctx.addIssue({
          code: 'custom',
          path: ['reminders', index, 'projectId'],
          message: 'The reminder’s project is not in the file',
        });
    });
    file.activities.forEach((activity, index) => {
      if (activity.projectId !== null && !ids.has(activity.projectId))
        ctx.addIssue({
          code: 'custom',
          path: ['activities', index, 'projectId'],
          message: 'The entry’s project is not in the file',
        });
    });
  });

export type ImportFile = z.infer<typeof importFileSchema>;
