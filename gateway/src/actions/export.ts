import { currentSubscriptionStatus } from '@shiplog/contracts';
import { AppError, ForbiddenError, UnauthorizedError } from '@shiplog/errors';
import { formatPosition, type Position } from '@shiplog/events';
import {
  type Activity,
  checklistKeys,
  EXPORT_FORMAT,
  EXPORT_REQUIRES_SUBSCRIPTION,
  type ExportFile,
  type ImportResult,
  isSubscribed,
  PERSONAL_SPACE,
  type Project,
  type Reminder,
  socialLinkKeys,
} from '@shiplog/schemas';
import {
  csv,
  POSITION_HEADER,
  parsePositions,
  type ServiceClients,
  type ServiceName,
  tokenScopeRefused,
  tokenSpace,
} from '@shiplog/service-kit';
import { strToU8, zipSync } from 'fflate';
import type { RequestPositions } from '../session/positions.ts';
import { callerFor } from '../session/session-cache.ts';
import { type Action, type ActionOf, tokenGrantOf, userOf } from './action.ts';

/**
 * Export and import.
 *
 * `GET /api/export`: every project, reminder and timeline entry of the user, as one JSON file that
 * imports back, or as a zip of one CSV file per kind. The gateway gathers each service's part (waiting
 * for the user's own writes, as every read does) and shapes the file. Export is a feature of the paid
 * plan (spec/account.md §1), decided by billing's word at this moment.
 *
 * `POST /api/import`: such a file, checked whole first (a 400 names every bad field), then brought in
 * through the services that own each part: the projects, then their reminders and their timeline,
 * each call waiting for the previous ones' writes. Every id it makes is derived from the file's, so
 * the same file imported again, or an import that stopped half-way run again, brings nothing twice.
 */
export function exportActions(deps: { services: ServiceClients; positions: RequestPositions }): {
  exportData: Action;
  importData: Action;
} {
  const { services, positions } = deps;

  const read = <T>(req: Parameters<Action>[0], service: ServiceName, path: string): Promise<T> =>
    services.read<T>(service, path, { caller: callerFor(userOf(req)), after: positions.of(req) });

  const exportData: ActionOf<'GET /api/export'> = async (req, res, _params, parsed) => {
    const { format } = parsed.query;
    const user = userOf(req)!;
    // The account's own data: not for a token limited to one workspace.
    const space = tokenSpace({ apiToken: tokenGrantOf(req) });
    if (space !== null && space !== PERSONAL_SPACE)
      throw tokenScopeRefused(
        'This API token is limited to one workspace: the export is your own data. Use a token of your personal space.',
      );
    if (!isSubscribed(await currentSubscriptionStatus(services, callerFor(user))))
      throw new ForbiddenError(EXPORT_REQUIRES_SUBSCRIPTION, 'SUBSCRIPTION_REQUIRED');
    const [reached, reachedReminders, activities] = await Promise.all([
      read<Project[]>(req, 'projects', '/projects'),
      read<Reminder[]>(req, 'reminders', '/reminders'),
      read<Activity[]>(req, 'activity', '/activities/export'),
    ]);
    // The account's own: its personal projects and their reminders. A team workspace's projects are
    // the team's, read by its members in the app, not carried off in one member's file.
    const projects = reached.filter((project) => !project.workspaceId).map(({ role: _role, ...project }) => project);
    const own = new Set(projects.map((project) => project.id));
    const reminders = reachedReminders.filter((reminder) => own.has(reminder.projectId));
    const exportedAt = new Date().toISOString();
    const file: ExportFile = {
      format: EXPORT_FORMAT,
      version: 1,
      exportedAt,
      username: user.username,
      projects,
      reminders,
      activities,
    };
    const name = `shiplog-${user.username}-${exportedAt.slice(0, 10)}`;
    res.setHeader('cache-control', 'no-store');
    if (format === 'json') {
      res.setHeader('content-disposition', `attachment; filename="${name}.json"`);
      res.json(file);
      return;
    }
    res.setHeader('content-type', 'application/zip');
    res.setHeader('content-disposition', `attachment; filename="${name}.zip"`);
    res.end(Buffer.from(exportZip(file)));
  };

  const importData: ActionOf<'POST /api/import'> = async (req, res, _params, parsed) => {
    const file = parsed.body;
    const caller = callerFor(req.session.user);
    // Where this import's writes reached, by source: each later call waits for them.
    const reached = new Map<string, Position>();
    const reachedHeader = () => [...reached].map(([source, p]) => `${source}=${formatPosition(p)}`).join(',');
    async function write<T>(service: ServiceName, path: string, body: unknown): Promise<T> {
      const answer = await services.call<T & { message?: string; code?: string }>(service, {
        method: 'POST',
        path,
        body,
        caller,
        // A part of a large file is thousands of events in one append.
        timeoutMs: 60_000,
        after: [positions.of(req), reachedHeader()].filter(Boolean).join(',') || undefined,
      });
      if (answer.status === 401) throw new UnauthorizedError();
      if (answer.status >= 400 && answer.status < 500)
        throw new AppError(answer.status, answer.body.code ?? 'IMPORT_FAILED', answer.body.message ?? 'Import failed');
      if (answer.status !== 200) throw new AppError(502, 'UPSTREAM_FAILED', `The ${service} service did not answer`);
      const header = answer.headers[POSITION_HEADER];
      for (const [source, position] of parsePositions(typeof header === 'string' ? `${reachedHeader()},${header}` : ''))
        reached.set(source, position);
      return answer.body;
    }

    // What this import added; the rest of the file was brought in by an earlier import of it.
    const added = { projects: 0, reminders: 0, activities: 0 };
    const projectIds = new Map<string, string>();
    for (const projects of parts(file.projects, 100)) {
      const answer = await write<{ ids: Record<string, string>; added: number }>('projects', '/imports/projects', {
        projects,
      });
      for (const [from, to] of Object.entries(answer.ids)) projectIds.set(from, to);
      added.projects += answer.added;
    }
    const here = (projectId: string | null) => (projectId === null ? null : projectIds.get(projectId)!);
    for (const reminders of parts(file.reminders, 200)) {
      const answer = await write<{ added: number }>('reminders', '/imports/reminders', {
        reminders: reminders.map((r) => ({ ...r, projectId: here(r.projectId) })),
      });
      added.reminders += answer.added;
    }
    const entries = file.activities
      .toSorted((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id))
      .map((a) => ({ ...a, projectId: here(a.projectId) }));
    for (const part of parts(entries, 1000, 400_000)) {
      const answer = await write<{ imported: number }>('projects', '/imports/history', { entries: part });
      added.activities += answer.imported;
    }

    positions.remember(req, res, reachedHeader() || undefined);
    const result: ImportResult = {
      ...added,
      importedBefore: {
        projects: file.projects.length - added.projects,
        reminders: file.reminders.length - added.reminders,
        activities: file.activities.length - added.activities,
      },
    };
    res.status(201).json(result);
  };

  return { exportData, importData };
}

/**
 * `items` in order, split into parts of at most `count` items and about `bytes` of JSON each: what
 * one call to a service carries (its bodies stop at 1 MB, and an event on the bus at 1 MB too).
 */
export function parts<T>(items: readonly T[], count: number, bytes = Number.POSITIVE_INFINITY): T[][] {
  const out: T[][] = [];
  let part: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = bytes === Number.POSITIVE_INFINITY ? 0 : JSON.stringify(item).length;
    if (part.length > 0 && (part.length === count || size + itemSize > bytes)) {
      out.push(part);
      part = [];
      size = 0;
    }
    part.push(item);
    size += itemSize;
  }
  if (part.length > 0) out.push(part);
  return out;
}

/** The zip of the CSV export: projects.csv, reminders.csv and activities.csv. */
export function exportZip(file: ExportFile): Uint8Array {
  return zipSync({
    'projects.csv': strToU8(
      csv(
        [
          'id',
          'name',
          'description',
          'status',
          ...checklistKeys,
          'costEstimateUsd',
          'replitId',
          'isPublic',
          ...socialLinkKeys,
          'createdAt',
          'updatedAt',
        ],
        file.projects.map((p) => [
          p.id,
          p.name,
          p.description,
          p.status,
          ...checklistKeys.map((key) => p.checklist[key]),
          p.costEstimate === null ? null : (p.costEstimate / 100).toFixed(2),
          p.replitId,
          p.isPublic,
          ...socialLinkKeys.map((key) => p.metadata.socialLinks[key]),
          p.createdAt,
          p.updatedAt,
        ]),
      ),
    ),
    'reminders.csv': strToU8(
      csv(
        [
          'id',
          'projectId',
          'projectName',
          'title',
          'description',
          'dueDate',
          'reminderTimes',
          'frequency',
          'isCompleted',
          'lastSentAt',
          'createdAt',
          'updatedAt',
        ],
        file.reminders.map((r) => [
          r.id,
          r.projectId,
          r.projectName,
          r.title,
          r.description,
          r.dueDate,
          r.reminderTimes.join(' '),
          r.frequency,
          r.isCompleted,
          r.lastSentAt,
          r.createdAt,
          r.updatedAt,
        ]),
      ),
    ),
    'activities.csv': strToU8(
      csv(
        [
          'id',
          'projectId',
          'timestamp',
          'eventType',
          'action',
          'details',
          'version',
          'status',
          'metadata',
          'actor',
          'token',
        ],
        file.activities.map((a) => [
          a.id,
          a.projectId,
          a.timestamp,
          a.eventType,
          a.action,
          a.details,
          a.version,
          a.status,
          JSON.stringify(a.metadata),
          a.actor?.username ?? null,
          a.actor?.token ?? null,
        ]),
      ),
    ),
  });
}
