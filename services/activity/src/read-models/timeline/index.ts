import { publishedEventTypesOf } from '@shiplog/events';
import { onEach, type ProjectionDefinition, type ReceivedEvent } from '@shiplog/service-kit';
import { type TimelineEventType, toTimelineEntry } from './timeline.ts';

const timelineEventTypes: TimelineEventType[] = [
  ...publishedEventTypesOf('projects'),
  ...publishedEventTypesOf('reminders'),
  'PasswordChanged',
  'AccountInfoUpdated',
];

/**
 * A timeline row. It names its project only while the project exists (has its counters row): the same
 * whichever source's events come first. Live, a reminder's row is written before its project's
 * deletion unlinks it; a rebuild replays the projects' events, deletions included, before the
 * reminders'.
 */
const INSERT_ACTIVITY = `INSERT INTO activity.activities (id, user_id, project_id, event_type, action, details, metadata, version, status, timestamp)
  VALUES ($1, $2, (SELECT project_id FROM activity.project_stats WHERE project_id = $3), $4, $5, $6, $7, $8, $9, $10)
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
  sources: ['projects', 'reminders', 'identity'],
  tables: ['activities', 'project_stats'],
  handlers: onEach(timelineEventTypes, async (event: ReceivedEvent<TimelineEventType>, _tx, { defer }) => {
    if (event.type === 'ProjectDeleted') {
      // A deleted project's activities stay, no longer linked to it.
      defer('UPDATE activity.activities SET project_id = NULL WHERE project_id = $1', [event.data.projectId]);
      defer('DELETE FROM activity.project_stats WHERE project_id = $1', [event.data.projectId]);
    } else if (event.type === 'ProjectCreated' || event.type === 'ProjectImported') {
      const d = event.data;
      defer(
        `INSERT INTO activity.project_stats (project_id, user_id, status, created_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT (project_id) DO NOTHING`,
        [d.projectId, d.userId, d.status, d.createdAt],
      );
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
    ]);
  }),
};
