import { ForbiddenError, NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { AUDIT_EXPORT_MAX, type AuditEntry, roleAtLeast } from '@shiplog/schemas';
import { csv, requireUserId, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { Request } from 'express';
import type { ActivityEnv } from '../../env.ts';
import { workspaceMembers } from '../workspace-members/index.ts';
import { type AuditFilter, auditEntries, auditPage } from './index.ts';
import { auditRoutes } from './routes.ts';

const workspaceNotFound = () => new NotFoundError('Workspace not found', 'WORKSPACE_NOT_FOUND');

export function auditApi(context: ServiceContext<ActivityEnv>) {
  const { pool } = context;

  /**
   * The workspace the path names, when the caller is one of its owners or admins: anyone else who is
   * not a member learns nothing (404), a member or viewer is refused (403).
   */
  async function readable(req: Request<Record<string, string>>): Promise<string> {
    const workspaceId = req.params.id;
    if (!isId(workspaceId)) throw workspaceNotFound();
    const role = await workspaceMembers.roleIn(pool, workspaceId, requireUserId(req));
    if (!role) throw workspaceNotFound();
    if (!roleAtLeast(role, 'admin'))
      throw new ForbiddenError('Only the workspace’s owners and admins can read its audit log.');
    return workspaceId;
  }

  const filterOf = (workspaceId: string, query: { actor?: string | undefined; kind?: AuditFilter['kind'] }) => ({
    workspaceId,
    actor: query.actor,
    kind: query.kind,
  });

  return serveRoutes(auditRoutes, {
    'GET /workspaces/:id/audit': async (req, res, parsed) => {
      const workspaceId = await readable(req);
      const { page, limit, ...query } = parsed.query;
      const { entries, total } = await auditPage(pool, filterOf(workspaceId, query), page, limit);
      res.setHeader('X-Total-Count', String(total));
      res.json(entries);
    },

    'GET /workspaces/:id/audit.csv': async (req, res, parsed) => {
      const workspaceId = await readable(req);
      const entries = await auditEntries(pool, filterOf(workspaceId, parsed.query), AUDIT_EXPORT_MAX);
      res
        .type('text/csv; charset=utf-8')
        .attachment(`shiplog-audit-${workspaceId}.csv`)
        .send(
          csv(
            ['at', 'actor', 'actorId', 'kind', 'target', 'address', 'details'],
            entries.map((e: AuditEntry) => [
              e.at,
              e.actor?.username ?? null,
              e.actor?.userId ?? null,
              e.kind,
              e.target,
              e.address,
              JSON.stringify(e.details),
            ]),
          ),
        );
    },

    'GET /workspaces/:id/audit.json': async (req, res, parsed) => {
      const workspaceId = await readable(req);
      res
        .attachment(`shiplog-audit-${workspaceId}.json`)
        .json(await auditEntries(pool, filterOf(workspaceId, parsed.query), AUDIT_EXPORT_MAX));
    },
  });
}
