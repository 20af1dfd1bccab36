import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';
import { checklistKeys, deployHookPlatforms, projectStatuses } from './values.ts';

const projectStatus = z.enum(projectStatuses);
const checklistKey = z.enum(checklistKeys);
const checklist = z.object(
  Object.fromEntries(checklistKeys.map((k) => [k, z.boolean()])) as Record<
    (typeof checklistKeys)[number],
    z.ZodBoolean
  >,
);
const socialLinks = z.object({
  github: z.string().optional(),
  website: z.string().optional(),
  docs: z.string().optional(),
  twitter: z.string().optional(),
  instagram: z.string().optional(),
});

/** What a release or deployment shipped: the commits since the one before, and the pull requests they merged. */
const shipped = z.object({
  compareUrl: z.string().nullable(),
  commits: z.array(z.object({ sha: z.string(), message: z.string(), author: z.string(), url: z.string() })),
  pullRequests: z.array(z.object({ number: z.number().int(), title: z.string(), url: z.string() })),
});

/** A project's every field, in the events that hold all of it: made, imported, moved into a space. */
const wholeProject = {
  name: z.string(),
  description: z.string().nullable(),
  status: projectStatus,
  checklist,
  costEstimate: z.number().int().nullable(),
  replitId: z.string().nullable(),
  isPublic: z.boolean(),
  socialLinks,
  createdAt: isoDate,
};

// projects — `project-<id>` streams. Every event names the owner, so reactions never look it up.
export const projectEvents = {
  ProjectCreated: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      /** The team workspace it belongs to; absent or null: its maker's personal space. */
      workspaceId: id.nullable().optional(),
      ...wholeProject,
    }),
  }),
  /** Fields other than status and checklist, which have events of their own. */
  ProjectUpdated: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      changes: z
        .object({
          name: z.string(),
          description: z.string().nullable(),
          costEstimate: z.number().int().nullable(),
          replitId: z.string().nullable(),
          isPublic: z.boolean(),
          socialLinks,
        })
        .partial(),
      at: isoDate,
    }),
  }),
  ProjectStatusChanged: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      from: projectStatus,
      to: projectStatus,
      at: isoDate,
    }),
  }),
  ChecklistUpdated: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      checklist,
      changed: z.array(checklistKey),
      // A toggle is its own timeline entry; the other causes are part of another entry.
      cause: z.enum(['toggle', 'quick_update', 'deployment', 'backup']),
      at: isoDate,
    }),
  }),
  BackupRecorded: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      version: z.string().nullable(),
      notes: z.string().nullable(),
      location: z.string().nullable(),
      size: z.string().nullable(),
      at: isoDate,
    }),
  }),
  /**
   * v2: `status` (a platform's webhook reports failed deployments too) and `source`, the platform's own
   * id of the deployment when a deploy webhook recorded it (the project records each one once).
   */
  DeploymentRecorded: event({
    owner: 'projects',
    version: 2,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      environment: z.enum(['development', 'staging', 'production']),
      version: z.string().nullable(),
      url: z.string().nullable(),
      notes: z.string().nullable(),
      method: z.string().nullable(),
      duration: z.string().nullable(),
      /** `started`: under way (a later one of the same deployment says how it went). */
      status: z.enum(['started', 'success', 'failed']),
      source: z.object({ platform: z.enum(deployHookPlatforms), deploymentId: z.string() }).nullable(),
      /** From GitHub's compare, when a GitHub delivery recorded it. */
      shipped: shipped.optional(),
      at: isoDate,
    }),
    upcasters: { 1: (data) => ({ ...(data as object), status: 'success', source: null }) },
  }),
  VersionReleased: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      version: z.string(),
      notes: z.string().nullable(),
      changes: z.array(z.string()),
      /** From GitHub's compare, when a GitHub delivery recorded it. */
      shipped: shipped.optional(),
      at: isoDate,
    }),
  }),
  QuickUpdateLogged: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      notes: z.string(),
      redeployed: z.boolean(),
      backedUp: z.boolean(),
      at: isoDate,
    }),
  }),
  ProjectDeleted: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({ projectId: id, workspaceId: id.optional(), userId: id, name: z.string(), at: isoDate }),
  }),
  /**
   * A deploy webhook URL made for the project by whoever the metadata names (`replaced`: the one before
   * it stopped working at once), or turned off. The URL's secret is never in an event: its hash is the
   * deploy-hook table's (decision 031). What a team's audit log reads.
   */
  DeployHookMade: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      replaced: z.boolean(),
      at: isoDate,
    }),
  }),
  DeployHookTurnedOff: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({ projectId: id, workspaceId: id.optional(), userId: id, name: z.string(), at: isoDate }),
  }),
  /**
   * The project left its space (moved by an owner or admin of both sides): sealed with that space's
   * key, so the members it leaves are told. `to` is the team workspace it went to (null: `movedBy`'s
   * personal space). ProjectMovedIn follows it in the same append.
   */
  ProjectMovedOut: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      name: z.string(),
      to: id.nullable(),
      movedBy: id,
      at: isoDate,
    }),
  }),
  /**
   * The project as it stands, in its new space: its maker (`movedBy` when it went to a personal space)
   * and workspace, and every field, so it folds from here on without the events before, which stay
   * sealed with the previous space's key (that space's erasure leaves the project whole). `from` is the
   * workspace it left (null: its maker's personal space).
   */
  ProjectMovedIn: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      from: id.nullable(),
      movedBy: id,
      ...wholeProject,
      /** The platforms' deployments recorded so far (`platform:id`), each recorded once still. */
      hookDeployments: z.array(z.string()),
      at: isoDate,
    }),
  }),
  /**
   * A project brought in from a Shiplog export, as it stood when exported: its dates are
   * the original ones, and its history arrives apart (HistoryImported), so it makes no timeline entry.
   * `importedFrom` is its id in the file: importing the same file again imports nothing twice.
   */
  ProjectImported: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      /** The team workspace it belongs to; absent or null: its maker's personal space. */
      workspaceId: id.nullable().optional(),
      importedFrom: z.string(),
      ...wholeProject,
      updatedAt: isoDate,
      at: isoDate,
    }),
  }),
  /**
   * Timeline entries from a Shiplog export, with their original times, linked to the imported projects
   * (`history-import-<importId>` streams; a large history is several of these). Each entry's `id` is
   * derived from its id in the file, so the same entry imported again is one row.
   */
  HistoryImported: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      importId: id,
      entries: z.array(
        z.object({
          id,
          projectId: id.nullable(),
          eventType: z.string(),
          action: z.string(),
          details: z.string(),
          metadata: z.record(z.string(), z.unknown()),
          version: z.string().nullable(),
          status: z.enum(['success', 'failed', 'in_progress']),
          at: isoDate,
          /** The entry was the importing user's (absent: nobody's), with the API token's name if one made it. */
          actor: z.object({ token: z.string().nullable() }).nullable().optional(),
        }),
      ),
      at: isoDate,
    }),
  }),
} as const satisfies Record<string, { owner: 'projects' }>;
