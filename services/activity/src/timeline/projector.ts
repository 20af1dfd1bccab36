import { type DomainEvent, isEventType, parseEventData, publishedEventTypesOf } from '@shiplog/events';
import type { Handler, ProjectionDefinition } from '@shiplog/service-kit';
import { toTimelineEntry } from './timeline.ts';

/**
 * The activity projector: timeline rows and the dashboard counters' project table, from the projects
 * and reminders services' events, and the security changes of identity. Idempotent (a row's id is
 * its event's id) and deterministic (times come from the events), so a rebuild reproduces the live
 * tables exactly. It never reads its tables, so every write is deferred to the batch's commit (one
 * round trip for the batch: see Batch).
 */
const project: Handler = async (busEvent, _tx, batch) => {
  if (!isEventType(busEvent.type)) return;
  const event = {
    type: busEvent.type,
    data: parseEventData(busEvent.type, busEvent.data, busEvent.metadata.schemaVersion),
  } as DomainEvent;
  const { defer, literal } = batch;

  if (event.type === 'ProjectDeleted') {
    // A deleted project's activities stay, no longer linked to it.
    const projectId = literal(event.data.projectId);
    defer(`UPDATE activity.activities SET project_id = NULL WHERE project_id = ${projectId}`);
    defer(`DELETE FROM activity.project_stats WHERE project_id = ${projectId}`);
  } else if (event.type === 'ProjectCreated') {
    const d = event.data;
    defer(
      `INSERT INTO activity.project_stats (project_id, user_id, status, created_at)
       VALUES (${literal(d.projectId)}, ${literal(d.userId)}, ${literal(d.status)}, ${literal(d.createdAt)})
       ON CONFLICT (project_id) DO NOTHING`,
    );
  } else if (event.type === 'ProjectStatusChanged') {
    defer(
      `UPDATE activity.project_stats SET status = ${literal(event.data.to)} WHERE project_id = ${literal(event.data.projectId)}`,
    );
  }

  const entry = toTimelineEntry(event);
  if (!entry) return;
  defer(
    `INSERT INTO activity.activities (id, user_id, project_id, event_type, action, details, metadata, version, status, timestamp)
     VALUES (${[
       busEvent.id,
       entry.userId,
       entry.projectId,
       entry.eventType,
       entry.action,
       entry.details,
       entry.metadata,
       entry.version,
       entry.status,
       busEvent.occurredAt,
     ]
       .map(literal)
       .join(', ')})
     ON CONFLICT (id) DO NOTHING`,
  );
};

export const timelineProjection: ProjectionDefinition = {
  name: 'timeline',
  sources: ['projects', 'reminders', 'identity'],
  tables: ['activities', 'project_stats'],
  handlers: Object.fromEntries(
    [
      ...publishedEventTypesOf('projects'),
      ...publishedEventTypesOf('reminders'),
      'PasswordChanged',
      'AccountInfoUpdated',
    ].map((type) => [type, project]),
  ),
};
