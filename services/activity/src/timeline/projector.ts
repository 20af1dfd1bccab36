import { type DomainEvent, isEventType, parseEventData, publishedEventTypesOf } from '@shiplog/events';
import type { Handler, ProjectionDefinition } from '@shiplog/service-kit';
import { toTimelineEntry } from './timeline.ts';

/**
 * The activity projector: timeline rows and the dashboard counters' project table, from the projects
 * and reminders services' events, and the
 * security changes of identity. Idempotent (a row's id is its event's id) and deterministic (times come from the
 * events), so a rebuild reproduces the live tables exactly.
 */
const project: Handler = async (busEvent, tx) => {
  if (!isEventType(busEvent.type)) return;
  const event = {
    type: busEvent.type,
    data: parseEventData(busEvent.type, busEvent.data, busEvent.metadata.schemaVersion),
  } as DomainEvent;

  if (event.type === 'ProjectDeleted') {
    // A deleted project's activities stay, no longer linked to it.
    await tx.query('UPDATE activity.activities SET project_id = NULL WHERE project_id = $1', [event.data.projectId]);
    await tx.query('DELETE FROM activity.project_stats WHERE project_id = $1', [event.data.projectId]);
  } else if (event.type === 'ProjectCreated') {
    await tx.query(
      `INSERT INTO activity.project_stats (project_id, user_id, status, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id) DO NOTHING`,
      [event.data.projectId, event.data.userId, event.data.status, event.data.createdAt],
    );
  } else if (event.type === 'ProjectStatusChanged') {
    await tx.query('UPDATE activity.project_stats SET status = $2 WHERE project_id = $1', [
      event.data.projectId,
      event.data.to,
    ]);
  }

  const entry = toTimelineEntry(event);
  if (!entry) return;
  await tx.query(
    `INSERT INTO activity.activities (id, user_id, project_id, event_type, action, details, metadata, version, status, timestamp)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (id) DO NOTHING`,
    [
      busEvent.id,
      entry.userId,
      entry.projectId,
      entry.eventType,
      entry.action,
      entry.details,
      JSON.stringify(entry.metadata),
      entry.version,
      entry.status,
      busEvent.occurredAt,
    ],
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
