import { AUDIT_RETENTION_DAYS, type AuditEntry, type AuditKind } from '@shiplog/schemas';
import { type EventHandlers, onEach, type ProjectionDefinition, type ReceivedEvent } from '@shiplog/service-kit';
import type pg from 'pg';

/**
 * Each team workspace's audit log, from the domain events of the workspace (identity's), its projects
 * (projects': their deploy webhook URLs too) and their monitors (monitors': their ping URLs too): no second write path that could drift from what
 * happened. Who acted and from where come from the event's metadata (`userId`, `address`). A
 * workspace's deletion takes its log with it; an entry older than a year goes (timers/expire-audit).
 */
type Entry = {
  workspaceId: string;
  kind: AuditKind;
  target?: string | null;
  targetUser?: string | null;
  details?: Record<string, unknown>;
};

const INSERT = `INSERT INTO activity.audit_log (id, workspace_id, at, actor_id, kind, target, target_user, details, address)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`;

function record(event: ReceivedEvent, entry: Entry, defer: (sql: string, params: unknown[]) => void) {
  defer(INSERT, [
    event.id,
    entry.workspaceId,
    event.occurredAt,
    event.metadata.userId,
    entry.kind,
    entry.target ?? null,
    entry.targetUser ?? null,
    JSON.stringify(entry.details ?? {}),
    event.metadata.address ?? null,
  ]);
}

/** The team project a monitor's event is about, as this log knows it: null for a personal project's. */
async function teamProject(tx: pg.PoolClient, projectId: string) {
  const { rows } = await tx.query<{ workspaceId: string; name: string }>(
    'SELECT workspace_id AS "workspaceId", name FROM activity.audit_projects WHERE project_id = $1',
    [projectId],
  );
  return rows[0] ?? null;
}

const monitorKinds = {
  MonitorAdded: 'monitor.added',
  MonitorChanged: 'monitor.changed',
  MonitorPaused: 'monitor.paused',
  MonitorResumed: 'monitor.resumed',
  MonitorRemoved: 'monitor.removed',
} as const;

type MonitorEventType = keyof typeof monitorKinds;

/** A monitor's change, on a team project's monitor only. */
const onMonitor = onEach(
  Object.keys(monitorKinds) as MonitorEventType[],
  async (event: ReceivedEvent<MonitorEventType>, tx, { defer }) => {
    const d = event.data as { monitorId: string; projectId: string; url?: string; reason?: string };
    const project = await teamProject(tx, d.projectId);
    if (!project) return;
    const details: Record<string, unknown> = { monitorId: d.monitorId };
    if (d.url !== undefined) details.url = d.url;
    if (event.type === 'MonitorChanged') details.changed = Object.keys(event.data.changes);
    if (d.reason !== undefined) details.reason = d.reason;
    record(
      event,
      { workspaceId: project.workspaceId, kind: monitorKinds[event.type], target: project.name, details },
      defer,
    );
  },
);

/** A team project's cron ping URL made (replacing one, or not) or turned off. */
const onPingUrl = onEach(
  ['PingUrlMade', 'PingUrlTurnedOff'] as const,
  async (event: ReceivedEvent<'PingUrlMade' | 'PingUrlTurnedOff'>, tx, { defer }) => {
    const { projectId } = event.data;
    const project = await teamProject(tx, projectId);
    if (!project) return;
    const made = event.type === 'PingUrlMade';
    record(
      event,
      {
        workspaceId: project.workspaceId,
        kind: made ? 'ping_url.made' : 'ping_url.turned_off',
        target: project.name,
        details: made ? { projectId, replaced: (event.data as { replaced: boolean }).replaced } : { projectId },
      },
      defer,
    );
  },
);

export const auditProjection: ProjectionDefinition = {
  name: 'audit',
  // In this order in a rebuild: a project's workspace is known before its monitors' events.
  sources: ['identity', 'projects', 'monitors'],
  tables: ['audit_log', 'audit_projects', 'audit_totals'],
  handlers: {
    WorkspaceCreated: async (event, _tx, { defer }) =>
      record(event, { workspaceId: event.data.workspaceId, kind: 'workspace.created', target: event.data.name }, defer),
    WorkspaceRenamed: async (event, _tx, { defer }) =>
      record(event, { workspaceId: event.data.workspaceId, kind: 'workspace.renamed', target: event.data.name }, defer),
    // A deleted workspace's log goes with it: nobody is left to read it.
    WorkspaceDeleted: async (event, _tx, { defer }) => {
      defer('DELETE FROM activity.audit_log WHERE workspace_id = $1', [event.data.workspaceId]);
      defer('DELETE FROM activity.audit_totals WHERE workspace_id = $1', [event.data.workspaceId]);
      defer('DELETE FROM activity.audit_projects WHERE workspace_id = $1', [event.data.workspaceId]);
    },
    // What a deleted account did stays in its teams' logs, without the address it did it from.
    UserDeleted: async (event, _tx, { defer }) =>
      defer('UPDATE activity.audit_log SET address = NULL WHERE actor_id = $1', [event.data.userId]),
    WorkspaceInviteSent: async (event, _tx, { defer }) =>
      record(
        event,
        {
          workspaceId: event.data.workspaceId,
          kind: 'member.invited',
          targetUser: event.data.inviteeId,
          target: event.data.inviteeId ? null : event.data.emailHint,
          details: { role: event.data.role, inviteId: event.data.inviteId },
        },
        defer,
      ),
    WorkspaceInviteRevoked: async (event, _tx, { defer }) =>
      record(
        event,
        { workspaceId: event.data.workspaceId, kind: 'invite.revoked', details: { inviteId: event.data.inviteId } },
        defer,
      ),
    WorkspaceInviteDeclined: async (event, _tx, { defer }) =>
      record(
        event,
        {
          workspaceId: event.data.workspaceId,
          kind: 'invite.declined',
          targetUser: event.data.declinedBy,
          details: { inviteId: event.data.inviteId },
        },
        defer,
      ),
    WorkspaceMemberJoined: async (event, _tx, { defer }) =>
      record(
        event,
        {
          workspaceId: event.data.workspaceId,
          kind: 'member.joined',
          targetUser: event.data.memberId,
          details: { role: event.data.role },
        },
        defer,
      ),
    WorkspaceMemberRoleChanged: async (event, _tx, { defer }) =>
      record(
        event,
        {
          workspaceId: event.data.workspaceId,
          kind: 'member.role_changed',
          targetUser: event.data.memberId,
          details: { role: event.data.role },
        },
        defer,
      ),
    WorkspaceMemberRemoved: async (event, _tx, { defer }) =>
      record(
        event,
        {
          workspaceId: event.data.workspaceId,
          kind: event.data.removedBy === event.data.memberId ? 'member.left' : 'member.removed',
          targetUser: event.data.memberId,
        },
        defer,
      ),
    ProjectCreated: async (event, tx, { defer }) => {
      const { workspaceId, projectId, name } = event.data;
      if (!workspaceId) return;
      // Written at once, not deferred: a monitor's event later in this batch looks it up.
      await tx.query(
        'INSERT INTO activity.audit_projects (project_id, workspace_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [projectId, workspaceId, name],
      );
      record(event, { workspaceId, kind: 'project.created', target: name, details: { projectId } }, defer);
    },
    ProjectImported: async (event, tx, { defer }) => {
      const { workspaceId, projectId, name } = event.data;
      if (!workspaceId) return;
      await tx.query(
        'INSERT INTO activity.audit_projects (project_id, workspace_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [projectId, workspaceId, name],
      );
      record(event, { workspaceId, kind: 'project.imported', target: name, details: { projectId } }, defer);
    },
    ProjectUpdated: async (event, tx) => {
      if (event.data.changes.name === undefined || !event.data.workspaceId) return;
      await tx.query('UPDATE activity.audit_projects SET name = $2 WHERE project_id = $1', [
        event.data.projectId,
        event.data.changes.name,
      ]);
    },
    // A move is in the log of each team it leaves or joins; its monitors' changes follow it.
    ProjectMovedOut: async (event, tx, { defer }) => {
      const { workspaceId, projectId, name, to } = event.data;
      if (!workspaceId) return;
      await tx.query('DELETE FROM activity.audit_projects WHERE project_id = $1', [projectId]);
      record(event, { workspaceId, kind: 'project.moved_out', target: name, details: { projectId, to } }, defer);
    },
    ProjectMovedIn: async (event, tx, { defer }) => {
      const { workspaceId, projectId, name, from } = event.data;
      if (!workspaceId) return;
      await tx.query(
        `INSERT INTO activity.audit_projects (project_id, workspace_id, name) VALUES ($1, $2, $3)
         ON CONFLICT (project_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id, name = EXCLUDED.name`,
        [projectId, workspaceId, name],
      );
      record(event, { workspaceId, kind: 'project.moved_in', target: name, details: { projectId, from } }, defer);
    },
    ProjectDeleted: async (event, _tx, { defer }) => {
      const { workspaceId, projectId, name } = event.data;
      if (!workspaceId) return;
      record(event, { workspaceId, kind: 'project.deleted', target: name, details: { projectId } }, defer);
    },
    ...onMonitor,
    // A team project's deploy webhook and ping URLs, made (replacing one, or not) and turned off: by
    // whom and from where, never their secret, which no event holds.
    DeployHookMade: async (event, _tx, { defer }) => {
      const { workspaceId, projectId, name, replaced } = event.data;
      if (!workspaceId) return;
      record(event, { workspaceId, kind: 'deploy_hook.made', target: name, details: { projectId, replaced } }, defer);
    },
    DeployHookTurnedOff: async (event, _tx, { defer }) => {
      const { workspaceId, projectId, name } = event.data;
      if (!workspaceId) return;
      record(event, { workspaceId, kind: 'deploy_hook.turned_off', target: name, details: { projectId } }, defer);
    },
    ...onPingUrl,
    TeamAlertChannelChanged: async (event, _tx, { defer }) => {
      const d = event.data;
      record(
        event,
        {
          workspaceId: d.workspaceId,
          kind: d.change === 'added' ? 'alert_channel.added' : 'alert_channel.removed',
          target: d.name,
          details: { channelId: d.channelId, kind: d.kind },
        },
        defer,
      );
    },
    // API tokens limited to the workspace: their maker, name and scope, never their text.
    WorkspaceApiTokenCreated: async (event, _tx, { defer }) => {
      const d = event.data;
      record(
        event,
        {
          workspaceId: d.space,
          kind: 'api_token.created',
          target: d.name,
          details: { tokenId: d.tokenId, scope: d.scope },
        },
        defer,
      );
    },
    ApiTokenRevoked: async (event, _tx, { defer }) => {
      const d = event.data;
      if (!d.space) return;
      record(
        event,
        { workspaceId: d.space, kind: 'api_token.revoked', target: d.name ?? null, details: { tokenId: d.tokenId } },
        defer,
      );
    },
  } satisfies EventHandlers,
};

type Queryable = Pick<pg.Pool, 'query'>;

export interface AuditFilter {
  workspaceId: string;
  actor?: string | undefined;
  kind?: AuditKind | undefined;
}

const ENTRY_COLUMNS = `l.id, to_char(l.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
  CASE WHEN l.actor_id IS NULL THEN NULL ELSE json_build_object(
    'userId', l.actor_id, 'username', (SELECT username FROM activity.actors WHERE user_id = l.actor_id)) END AS actor,
  l.kind, coalesce(l.target, (SELECT username FROM activity.actors WHERE user_id = l.target_user)) AS target,
  l.details, l.address`;

/**
 * The ids of a page of the log by the filter, newest first (`$1` the workspace, `$2` an actor, `$3` a
 * kind, `$4` how many, `$5` how many to skip): by one of the log's indexes alone, so a deep page
 * skips index entries, not rows; only the page's rows are then read and named.
 */
const PAGE_IDS = `SELECT id FROM activity.audit_log
  WHERE workspace_id = $1 AND ($2::uuid IS NULL OR actor_id = $2) AND ($3::text IS NULL OR kind = $3)
  ORDER BY at DESC, id DESC LIMIT $4 OFFSET $5`;

const entriesOf = (ids: string) =>
  `SELECT ${ENTRY_COLUMNS} FROM (${ids}) page JOIN activity.audit_log l ON l.id = page.id ORDER BY l.at DESC, l.id DESC`;

const filterParams = (filter: AuditFilter) => [filter.workspaceId, filter.actor ?? null, filter.kind ?? null];

/** A page of a workspace's log, newest first, and how many entries it holds in all (`audit_totals`). */
export async function auditPage(
  db: Queryable,
  filter: AuditFilter,
  page: number,
  limit: number,
): Promise<{ entries: AuditEntry[]; total: number }> {
  const [{ rows }, counted] = await Promise.all([
    db.query<AuditEntry>(entriesOf(PAGE_IDS), [...filterParams(filter), limit, (page - 1) * limit]),
    db.query<{ total: number }>(
      `SELECT coalesce(sum(entries), 0)::int AS total FROM activity.audit_totals
       WHERE workspace_id = $1 AND ($2::uuid IS NULL OR actor_id = $2) AND ($3::text IS NULL OR kind = $3)`,
      filterParams(filter),
    ),
  ]);
  return { entries: rows, total: counted.rows[0]!.total };
}

/** Every entry of a workspace's log by the filter, newest first, at most `max` (an export). */
export async function auditEntries(db: Queryable, filter: AuditFilter, max: number): Promise<AuditEntry[]> {
  const { rows } = await db.query<AuditEntry>(entriesOf(PAGE_IDS), [...filterParams(filter), max, 0]);
  return rows;
}

/**
 * Takes away the entries older than a year, at most `batch` at a time; answers how many went. The
 * reads show what is left: an entry is read for at most the hour between two runs past its year.
 */
export async function expireAudit(db: Queryable, now: Date, batch = 10_000): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM activity.audit_log WHERE id IN (
       SELECT id FROM activity.audit_log WHERE at <= $1::timestamptz - make_interval(days => ${AUDIT_RETENTION_DAYS}) LIMIT $2)`,
    [now, batch],
  );
  return rowCount ?? 0;
}
