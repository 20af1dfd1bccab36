import { z } from 'zod';
import { pageQuerySchema } from './activities.ts';

/**
 * A team workspace's audit log: who did what in it, read by its owners and admins. Each entry is one
 * domain event's, kept a year.
 */
export const auditKinds = [
  'workspace.created',
  'workspace.renamed',
  'member.invited',
  'invite.revoked',
  'invite.declined',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'project.created',
  'project.imported',
  'project.moved_in',
  'project.moved_out',
  'project.deleted',
  'monitor.added',
  'monitor.changed',
  'monitor.paused',
  'monitor.resumed',
  'monitor.removed',
  'alert_channel.added',
  'alert_channel.removed',
  'deploy_hook.made',
  'deploy_hook.turned_off',
  'ping_url.made',
  'ping_url.turned_off',
  'api_token.created',
  'api_token.revoked',
] as const;
export type AuditKind = (typeof auditKinds)[number];

/** How long an entry is kept, in days. */
export const AUDIT_RETENTION_DAYS = 365;

/** The most entries one export (`…/audit.csv`, `…/audit.json`) holds: a year of a busy team's. */
export const AUDIT_EXPORT_MAX = 100_000;

const actor = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.uuid({ error: 'actor must be a user id' }).optional(),
);
const kind = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.enum(auditKinds, { error: `kind must be one of ${auditKinds.join(', ')}` }).optional(),
);

/** `GET /api/workspaces/{id}/audit`: a page (from 1) of `limit` (1–100, 50 when not said), by actor and kind. */
export const auditQuerySchema = pageQuerySchema(50).extend({
  actor,
  kind,
});

/** The exports: every entry by actor and kind, newest first. */
export const auditExportQuerySchema = z.object({ actor, kind });

export const auditEntryView = z.object({
  id: z.uuid(),
  at: z.string(),
  /** Who did it (their name null once their account is deleted); null: Shiplog itself (an account's deletion). */
  actor: z.object({ userId: z.uuid(), username: z.string().nullable() }).nullable(),
  kind: z.enum(auditKinds),
  /** What it was done to, by name: a member, a project, the workspace; null when it has none left. */
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  /** The client's address, as the gateway saw it; null when the event kept none (Shiplog's own). */
  address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntryView>;
