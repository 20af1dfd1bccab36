import { z } from 'zod';
import {
  type ChecklistKey,
  checklistKeys,
  normalizeSocialLinks,
  projectStatuses,
  type SocialLinkKey,
  socialLinkKeys,
} from './project-values.ts';

/** Projects (spec/core.md §3–§5), shared by the web forms and the projects service. */
export const INVALID_URL = 'Please enter a valid URL';
const httpUrl = z.url({ protocol: /^https?$/, error: INVALID_URL });

const socialLinksSchema = z.preprocess(
  (value) => (value && typeof value === 'object' ? normalizeSocialLinks(value as Record<string, unknown>) : value),
  z.object(
    Object.fromEntries(socialLinkKeys.map((k) => [k, httpUrl.optional()])) as Record<
      SocialLinkKey,
      z.ZodOptional<typeof httpUrl>
    >,
  ),
);

const checklistSchema = z.object(
  Object.fromEntries(checklistKeys.map((k) => [k, z.boolean({ error: `${k} must be true or false` })])) as Record<
    ChecklistKey,
    z.ZodBoolean
  >,
);

const statusSchema = z.enum(projectStatuses, {
  error: 'Status must be one of planning, development, deployed, blocked',
});
const costSchema = z
  .number({ error: 'Cost estimate must be a number of cents' })
  .int('Cost estimate must be a whole number of cents')
  .min(0, 'Cost estimate cannot be negative')
  .max(100_000_000_000, 'Cost estimate is too large')
  .nullable();
const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .transform((v) => (v === null || v.trim() === '' ? null : v));

export const projectFields = {
  name: z
    .string({ error: 'Project name is required' })
    .trim()
    .min(1, 'Project name is required')
    .max(200, 'Project name must be at most 200 characters'),
  description: optionalText(5000, 'Description'),
  status: statusSchema,
  costEstimate: costSchema,
  replitId: optionalText(200, 'Replit ID'),
  isPublic: z.boolean({ error: 'isPublic must be true or false' }),
  checklist: checklistSchema,
  metadata: z.object({ socialLinks: socialLinksSchema.optional() }, { error: 'metadata must be an object' }),
};

/** POST /api/projects: name required; everything else has the spec's default. */
export const createProjectSchema = z.object({
  name: projectFields.name,
  description: projectFields.description.optional().default(null),
  status: statusSchema.optional().default('planning'),
  costEstimate: costSchema.optional().default(null),
  replitId: projectFields.replitId.optional().default(null),
  isPublic: projectFields.isPublic.optional().default(true),
  checklist: checklistSchema.partial().optional().default({}),
  metadata: projectFields.metadata.optional().default({}),
  /** The team workspace it is made in; null or absent: the maker's personal space. */
  workspaceId: z.uuid({ error: 'Choose a workspace you belong to' }).nullable().optional().default(null),
});

/**
 * PUT /api/projects/{id}: any subset. A checklist toggle sends the five flags, either under
 * `checklist` or at the top level; an `id` in the body must be the path's.
 */
export const updateProjectSchema = z.preprocess(
  (body) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
    const input = { ...(body as Record<string, unknown>) };
    const flags = Object.fromEntries(checklistKeys.filter((k) => k in input).map((k) => [k, input[k]]));
    for (const k of checklistKeys) delete input[k];
    if (Object.keys(flags).length > 0) input.checklist = { ...(input.checklist as object | undefined), ...flags };
    return input;
  },
  z.object({
    id: z.string().optional(),
    name: projectFields.name.optional(),
    description: projectFields.description.optional(),
    status: statusSchema.optional(),
    costEstimate: costSchema.optional(),
    replitId: projectFields.replitId.optional(),
    isPublic: projectFields.isPublic.optional(),
    checklist: checklistSchema.partial().optional(),
    metadata: projectFields.metadata.optional(),
  }),
);

/**
 * POST /api/projects/{id}/move: the team workspace to move it to, or null for the caller's personal
 * space. The caller is an owner or admin of both sides.
 */
export const moveProjectSchema = z.object({
  workspaceId: z.uuid({ error: 'Choose a workspace you belong to, or null for your personal space' }).nullable(),
});

export type CreateProjectInput = z.infer<typeof createProjectSchema>;
export type UpdateProjectInput = z.infer<typeof updateProjectSchema>;

/** Quick Update (spec/core.md §4–§5). `details` is accepted for the notes, as the spec's payload names it. */
export const quickUpdateSchema = z.preprocess(
  (body) => {
    if (!body || typeof body !== 'object') return body;
    const input = body as Record<string, unknown>;
    const metadata = (input.metadata && typeof input.metadata === 'object' ? input.metadata : {}) as Record<
      string,
      unknown
    >;
    return {
      projectId: input.projectId,
      notes: input.notes ?? input.details,
      redeployed: input.redeployed ?? metadata.redeployed ?? false,
      backedUp: input.backedUp ?? metadata.backedUp ?? false,
    };
  },
  z.object({
    projectId: z.string({ error: 'Project is required' }).min(1, 'Project is required'),
    notes: z
      .string({ error: 'Notes must be at least 3 characters' })
      .trim()
      .min(3, 'Notes must be at least 3 characters')
      .max(2000, 'Notes must be at most 2000 characters'),
    redeployed: z.boolean({ error: 'redeployed must be true or false' }),
    backedUp: z.boolean({ error: 'backedUp must be true or false' }),
  }),
);
export type QuickUpdateInput = z.infer<typeof quickUpdateSchema>;

const optionalShort = (label: string) => optionalText(200, label).optional().default(null);

export const recordBackupSchema = z.object({
  version: optionalShort('Version'),
  notes: optionalText(2000, 'Notes').optional().default(null),
  backupDetails: z
    .object({ location: optionalShort('Backup location'), size: optionalShort('Backup size') })
    .optional()
    .default({ location: null, size: null }),
});

export const deploymentEnvironments = ['development', 'staging', 'production'] as const;
export type DeploymentEnvironment = (typeof deploymentEnvironments)[number];
/**
 * How a recorded deployment went. `started` (beyond the spec) says one is under way: it opens a
 * maintenance window on the project's monitors, which its success or failure closes.
 */
export const deploymentStatuses = ['started', 'success', 'failed'] as const;
export type DeploymentStatus = (typeof deploymentStatuses)[number];
const deploymentStatusSchema = z
  .enum(deploymentStatuses, { error: 'Status must be started, success or failed' })
  .optional()
  .default('success');

/**
 * What a release or deployment shipped (beyond the spec): the commits since the one before, as GitHub's
 * compare lists them, and the pull requests they merged, each linked.
 */
export const shippedSchema = z.object({
  compareUrl: z.string().max(2000).nullable(),
  commits: z
    .array(
      z.object({
        sha: z.string().max(64),
        message: z.string().max(1000),
        author: z.string().max(100),
        url: z.string().max(2000),
      }),
    )
    .max(250, 'At most 250 commits'),
  pullRequests: z
    .array(z.object({ number: z.number().int().positive(), title: z.string().max(500), url: z.string().max(2000) }))
    .max(100, 'At most 100 pull requests'),
});
export type Shipped = z.infer<typeof shippedSchema>;

export const recordDeploymentSchema = z.object({
  environment: z
    .enum(deploymentEnvironments, { error: 'Environment must be development, staging or production' })
    .optional()
    .default('production'),
  version: optionalShort('Version'),
  url: z
    .union([z.literal(''), httpUrl])
    .nullish()
    .transform((v) => v || null),
  notes: optionalText(2000, 'Notes').optional().default(null),
  deploymentDetails: z
    .object({ method: optionalShort('Method'), duration: optionalShort('Duration') })
    .optional()
    .default({ method: null, duration: null }),
  status: deploymentStatusSchema,
  shipped: shippedSchema.optional(),
});

/**
 * A deploy webhook's generic payload (beyond the spec): what any CI or platform that can POST JSON
 * sends. `deploymentId` is the sender's own id of the deployment: a delivery repeated with the same id
 * records nothing more.
 */
export const deployHookSchema = z.object({
  deploymentId: z
    .string({ error: 'Deployment id is required' })
    .trim()
    .min(1, 'Deployment id is required')
    .max(200, 'Deployment id must be at most 200 characters'),
  status: deploymentStatusSchema,
  environment: recordDeploymentSchema.shape.environment,
  version: recordDeploymentSchema.shape.version,
  url: recordDeploymentSchema.shape.url,
  notes: recordDeploymentSchema.shape.notes,
});
export type DeployHookInput = z.infer<typeof deployHookSchema>;

export const recordVersionSchema = z.object({
  version: z
    .string({ error: 'Version is required' })
    .trim()
    .min(1, 'Version is required')
    .max(100, 'Version must be at most 100 characters'),
  notes: optionalText(2000, 'Notes').optional().default(null),
  changes: z
    .array(z.string({ error: 'Each change must be text' }).max(500, 'Each change must be at most 500 characters'), {
      error: 'Changes must be a list',
    })
    .max(100, 'At most 100 changes')
    .optional()
    .default([])
    .transform((list) => list.map((c) => c.trim()).filter(Boolean)),
  shipped: shippedSchema.optional(),
});

/** The record dialogs' forms: the same rules as the calls, with the details' fields flat. */
export const recordBackupFormSchema = z.object({
  version: optionalShort('Version'),
  notes: optionalText(2000, 'Notes'),
  location: optionalShort('Backup location'),
  size: optionalShort('Backup size'),
});
export const recordDeploymentFormSchema = z.object({
  environment: z.enum(deploymentEnvironments),
  version: optionalShort('Version'),
  url: recordDeploymentSchema.shape.url,
  notes: optionalText(2000, 'Notes'),
  method: optionalShort('Method'),
});
export const recordVersionFormSchema = recordVersionSchema.pick({ version: true, notes: true });

export type RecordBackupInput = z.infer<typeof recordBackupSchema>;
export type RecordDeploymentInput = z.infer<typeof recordDeploymentSchema>;
export type RecordVersionInput = z.infer<typeof recordVersionSchema>;
