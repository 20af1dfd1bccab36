import { projectRoleSql } from '@shiplog/contracts';
import { publishedEventTypesOf } from '@shiplog/events';
import { type Activity, PERSONAL_SPACE, type WorkspaceRole } from '@shiplog/schemas';
import { onEach, type ProjectionDefinition, type ReceivedEvent } from '@shiplog/service-kit';
import type pg from 'pg';
import { actorOf } from '../actors/index.ts';
import { workspaceMembers } from '../workspace-members/index.ts';
import { type TimelineEventType, toTimelineEntry } from './timeline.ts';

const timelineEventTypes: TimelineEventType[] = [
  ...publishedEventTypesOf('projects'),
  ...publishedEventTypesOf('reminders'),
  ...publishedEventTypesOf('monitors'),
  'PasswordChanged',
  'AccountInfoUpdated',
];

/**
 * A timeline row. It names its project only while the project exists (has its counters row): the same
 * whichever source's events come first. Live, a reminder's row is written before its project's
 * deletion unlinks it; a rebuild replays the projects' events, deletions included, before the
 * reminders'.
 */
const INSERT_ACTIVITY = `INSERT INTO activity.activities (id, user_id, project_id, event_type, action, details, metadata, version, status, timestamp, actor_id, actor_token)
  VALUES ($1, $2, (SELECT project_id FROM activity.project_stats WHERE project_id = $3), $4, $5, $6, $7, $8, $9, $10, $11, $12)
  ON CONFLICT (id) DO NOTHING`;

/**
 * The activity projector: timeline rows and the dashboard counters' project table, from the projects
 * and reminders services' events, and the security changes of identity. Idempotent (a row's id is
 * its event's id) and deterministic (times come from the events, and a row's link to its project does
 * not depend on how the sources' events interleave), so a rebuild reproduces the live tables exactly.
 * It reads nothing before writing, so every write is deferred to the batch's commit (one round trip
 * for the batch: see Batch).
 */
export const timelineProjection: ProjectionDefinition = {
  name: 'timeline',
  sources: ['projects', 'reminders', 'monitors', 'identity'],
  tables: ['activities', 'project_stats'],
  handlers: onEach(timelineEventTypes, async (event: ReceivedEvent<TimelineEventType>, _tx, { defer }) => {
    if (event.type === 'ProjectDeleted') {
      // A deleted project's activities stay, no longer linked to it.
      defer('UPDATE activity.activities SET project_id = NULL WHERE project_id = $1', [event.data.projectId]);
      defer('DELETE FROM activity.project_stats WHERE project_id = $1', [event.data.projectId]);
    } else if (event.type === 'ProjectCreated' || event.type === 'ProjectImported') {
      const d = event.data;
      defer(
        `INSERT INTO activity.project_stats (project_id, user_id, workspace_id, status, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (project_id) DO NOTHING`,
        [d.projectId, d.userId, d.workspaceId ?? null, d.status, d.createdAt],
      );
    } else if (event.type === 'ProjectMovedIn') {
      // Whose it is now: the timeline, counters and charts follow it to its new space.
      defer('UPDATE activity.project_stats SET user_id = $2, workspace_id = $3 WHERE project_id = $1', [
        event.data.projectId,
        event.data.userId,
        event.data.workspaceId ?? null,
      ]);
    } else if (event.type === 'ProjectStatusChanged') {
      defer('UPDATE activity.project_stats SET status = $1 WHERE project_id = $2', [
        event.data.to,
        event.data.projectId,
      ]);
    }
    if (event.type === 'HistoryImported') {
      for (const e of event.data.entries) {
        defer(INSERT_ACTIVITY, [
          e.id,
          event.data.userId,
          e.projectId,
          e.eventType,
          e.action,
          e.details,
          JSON.stringify(e.metadata),
          e.version,
          e.status,
          e.at,
          // An imported entry is its importer's own history: theirs again, or nobody's.
          e.actor ? event.data.userId : null,
          e.actor?.token ?? null,
        ]);
      }
      return;
    }
    const entry = toTimelineEntry(event);
    if (!entry) return;
    defer(INSERT_ACTIVITY, [
      event.id,
      entry.userId,
      entry.projectId,
      entry.eventType,
      entry.action,
      entry.details,
      JSON.stringify(entry.metadata),
      entry.version,
      entry.status,
      event.occurredAt,
      // Who acted: the request's user (and its API token's name), as the event's metadata says.
      event.metadata.userId,
      event.metadata.token ?? null,
    ]);
  }),
};

/** A row (of the timeline or the cost history) of a project in a team workspace: the team's, not its maker's. */
export const TEAM_PROJECT_ROWS =
  'project_id IN (SELECT project_id FROM activity.project_stats WHERE workspace_id IS NOT NULL)';

// The timeline's reads.

type Queryable = Pick<pg.Pool, 'query'>;

/** A timeline row as the API answers it, from the rows aliased `a`. */
const ACTIVITY_COLUMNS = `a.id, a.user_id AS "userId", ${actorOf('a')} AS actor, a.project_id AS "projectId", a.event_type AS "eventType",
  a.action, a.details, a.metadata, a.version, a.status,
  to_char(a.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp`;

/**
 * The projects a user reaches, as a subquery of `project_id, status, created_at` (`user` their id's
 * parameter): their personal ones, and those of every workspace they belong to, whoever made each
 * (as the projects service lists them). By index both ways: the user's, and each workspace's.
 */
export const reachedProjects = (user: string) => `(
  SELECT project_id, status, created_at FROM activity.project_stats WHERE user_id = ${user} AND workspace_id IS NULL
  UNION ALL
  SELECT p.project_id, p.status, p.created_at FROM ${workspaceMembers.table} m
  JOIN activity.project_stats p ON p.workspace_id = m.workspace_id WHERE m.user_id = ${user})`;

/**
 * The timeline rows a user reaches, as a subquery of the table's columns (`user`: their id's
 * parameter; `space`: the one space a token limits them to, `personal` or a workspace's id, or null
 * for every space, as a parameter or `NULL`): their own
 * rows outside any team project (those of their personal projects, and those with no project: their
 * security changes, and a deleted project's, which stay only their maker's), and every row of their
 * workspaces' projects, whoever made it. A personal project's rows are all its owner's (nobody else
 * acts on one), so the first part reads the user's own index in timeline order: a personal account's
 * timeline is the rows it always was, read as they always were.
 */
const reachedActivities = (user: string, space: string) => `(
  SELECT a.* FROM activity.activities a
  WHERE a.user_id = ${user} AND (a.project_id IS NULL OR a.project_id IN
    (SELECT project_id FROM activity.project_stats WHERE user_id = ${user} AND workspace_id IS NULL))
    AND (${space}::text IS NULL OR ${space}::text = '${PERSONAL_SPACE}')
  UNION ALL
  SELECT a.* FROM ${workspaceMembers.table} m
  JOIN activity.project_stats p ON p.workspace_id = m.workspace_id
  JOIN activity.activities a ON a.project_id = p.project_id
  WHERE m.user_id = ${user} AND (${space}::text IS NULL OR m.workspace_id::text = ${space}::text))`;

/**
 * A page of the user's timeline, newest first, and how many entries it holds in all: every project
 * they reach, and their own entries of no project (`reachedActivities`), or one space's only
 * (`space`: a token's, see service-kit's `tokenSpace`).
 */
export async function activityPage(
  db: Queryable,
  userId: string,
  page: number,
  limit: number,
  space: string | null = null,
): Promise<{ activities: Activity[]; total: number }> {
  const [{ rows }, counted] = await Promise.all([
    db.query<Activity>(
      `SELECT ${ACTIVITY_COLUMNS} FROM ${reachedActivities('$1', '$2')} a
       ORDER BY a.timestamp DESC, a.id DESC LIMIT $3 OFFSET $4`,
      [userId, space, limit, (page - 1) * limit],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${reachedActivities('$1', '$2')} reached`, [
      userId,
      space,
    ]),
  ]);
  return { activities: rows, total: counted.rows[0]!.total };
}

/** The user's own timeline rows, oldest first (their export: their data, not their teams'). */
export async function allActivities(db: Queryable, userId: string): Promise<Activity[]> {
  const { rows } = await db.query<Activity>(
    `SELECT ${ACTIVITY_COLUMNS} FROM activity.activities a WHERE a.user_id = $1 ORDER BY a.timestamp, a.id`,
    [userId],
  );
  return rows;
}

/** A project's timeline, newest first (whoever reaches it: see `reachProject`). */
export async function projectActivities(db: Queryable, projectId: string): Promise<Activity[]> {
  const { rows } = await db.query<Activity>(
    `SELECT ${ACTIVITY_COLUMNS} FROM activity.activities a WHERE a.project_id = $1 ORDER BY a.timestamp DESC, a.id DESC`,
    [projectId],
  );
  return rows;
}

/** The project with the caller's role on it, or null when it is missing, deleted, or none of theirs. */
export async function reachProject(
  db: Queryable,
  projectId: string,
  userId: string,
): Promise<{ id: string; role: WorkspaceRole; workspaceId: string | null } | null> {
  const { rows } = await db.query<{ id: string; role: WorkspaceRole | null; workspaceId: string | null }>(
    `SELECT p.project_id AS id, p.workspace_id AS "workspaceId", ${projectRoleSql('p', 'm', '$2')} AS role
     FROM activity.project_stats p LEFT JOIN ${workspaceMembers.table} m ON m.workspace_id = p.workspace_id AND m.user_id = $2
     WHERE p.project_id = $1`,
    [projectId, userId],
  );
  const row = rows[0];
  return row?.role ? { id: row.id, role: row.role, workspaceId: row.workspaceId } : null;
}

/**
 * For a public profile page: each of the user's personal projects' latest successful deployment and
 * latest release (the environment, version and time only: never the notes). A team's project is
 * never on one.
 */
export async function shippedByProject(db: Queryable, userId: string) {
  const { rows } = await db.query<{
    projectId: string;
    kind: 'deployment' | 'release';
    version: string | null;
    environment: string | null;
    at: string;
  }>(
    `SELECT DISTINCT ON (a.project_id, a.event_type) a.project_id AS "projectId",
            CASE a.event_type WHEN 'deployment' THEN 'deployment' ELSE 'release' END AS kind,
            a.version, a.metadata->>'environment' AS environment,
            to_char(a.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
     FROM activity.project_stats p JOIN activity.activities a ON a.project_id = p.project_id
     WHERE p.user_id = $1 AND p.workspace_id IS NULL
       AND (a.event_type = 'version_release' OR (a.event_type = 'deployment' AND a.status = 'success'))
     ORDER BY a.project_id, a.event_type, a.timestamp DESC, a.id DESC`,
    [userId],
  );
  return rows;
}

/** The most releases of one project a public changelog lists, newest first. */
export const CHANGELOG_RELEASES = 50;

/**
 * The releases of a user's personal projects, newest first (at most `CHANGELOG_RELEASES` each), for
 * their public changelogs: the version, its notes and changes, and when. Not what it shipped: a
 * private repository's commits are not for a public page.
 */
export async function releasesByProject(db: Queryable, userId: string) {
  const { rows } = await db.query<{
    projectId: string;
    version: string;
    notes: string | null;
    changes: string[];
    at: string;
  }>(
    `SELECT "projectId", version, notes, changes, at FROM (
       SELECT a.project_id AS "projectId", a.version, a.metadata->>'notes' AS notes,
              coalesce(a.metadata->'changes', '[]'::jsonb) AS changes,
              to_char(a.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
              row_number() OVER (PARTITION BY a.project_id ORDER BY a.timestamp DESC, a.id DESC) AS n,
              a.timestamp, a.id
       FROM activity.project_stats p JOIN activity.activities a ON a.project_id = p.project_id
       WHERE p.user_id = $1 AND p.workspace_id IS NULL AND a.event_type = 'version_release' AND a.version IS NOT NULL
     ) releases WHERE n <= $2 ORDER BY "projectId", timestamp DESC, id DESC`,
    [userId, CHANGELOG_RELEASES],
  );
  return rows;
}

/**
 * The dashboard's stat cards, over every project the user reaches (`reachedProjects`): counts now, and
 * how many of each were created in the last 7 days.
 */
export async function dashboardCounters(db: Queryable, userId: string) {
  const { rows } = await db.query(
    `SELECT count(*)::int AS "totalProjects",
            count(*) FILTER (WHERE status = 'development')::int AS "activeProjects",
            count(*) FILTER (WHERE status = 'deployed')::int AS "completedProjects",
            count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS "totalChange",
            count(*) FILTER (WHERE status = 'development' AND created_at > now() - interval '7 days')::int AS "activeChange",
            count(*) FILTER (WHERE status = 'deployed' AND created_at > now() - interval '7 days')::int AS "completedChange"
     FROM ${reachedProjects('$1')} reached`,
    [userId],
  );
  return rows[0];
}

export interface WeeklyShipping {
  /** The first day (Monday) of each of the last 12 weeks, oldest first, `YYYY-MM-DD` in the asked time zone. */
  weeks: string[];
  deployments: number[];
  releases: number[];
}

/**
 * The deployments and version releases of the user's timeline (`reachedActivities`) per week over the
 * last 12 weeks, weeks counted in `timeZone`.
 */
export async function weeklyShipping(db: Queryable, userId: string, timeZone: string): Promise<WeeklyShipping> {
  const { rows } = await db.query<{ week: string; deployments: number; releases: number }>(
    `WITH weeks AS (
       SELECT w AS week FROM generate_series(date_trunc('week', now() AT TIME ZONE $2) - interval '11 weeks',
                                             date_trunc('week', now() AT TIME ZONE $2), interval '1 week') AS w
     ), shipped AS (
       SELECT date_trunc('week', timestamp AT TIME ZONE $2) AS week, event_type
       FROM ${reachedActivities('$1', 'NULL')} reached
       WHERE event_type IN ('deployment', 'version_release')
         AND timestamp >= (SELECT min(week) FROM weeks) AT TIME ZONE $2
     )
     SELECT to_char(weeks.week, 'YYYY-MM-DD') AS week,
            count(*) FILTER (WHERE shipped.event_type = 'deployment')::int AS deployments,
            count(*) FILTER (WHERE shipped.event_type = 'version_release')::int AS releases
     FROM weeks LEFT JOIN shipped ON shipped.week = weeks.week
     GROUP BY weeks.week ORDER BY weeks.week`,
    [userId, timeZone],
  );
  return {
    weeks: rows.map((row) => row.week),
    deployments: rows.map((row) => row.deployments),
    releases: rows.map((row) => row.releases),
  };
}
