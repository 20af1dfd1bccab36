import { auditEntryView, auditExportQuerySchema, auditQuerySchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** A team workspace's audit log (answered in `api.ts`): its owners and admins only. */
export const auditRoutes = declareRoutes({
  'GET /workspaces/:id/audit': {
    tag: 'Workspaces',
    summary: 'Who did what in the workspace, newest first, a page at a time',
    description:
      'Owners and admins only (403 for a member or viewer, 404 for anyone else). Membership, projects and their monitors, with who acted, when and from which address; kept a year. Filter by `actor` (a user id) and `kind`; the total is in the `X-Total-Count` header.',
    access: 'user',
    query: auditQuerySchema,
    answer: z.array(auditEntryView),
  },
  'GET /workspaces/:id/audit.csv': {
    tag: 'Workspaces',
    summary: 'The audit log as CSV, newest first',
    description:
      'Owners and admins only; the same filters as the page, every entry of the last year (at most 100,000).',
    access: 'user',
    limit: 'export',
    query: auditExportQuerySchema,
    answer: { type: 'text/csv', description: 'One line per entry: at, actor, kind, target, address, details.' },
  },
  'GET /workspaces/:id/audit.json': {
    tag: 'Workspaces',
    summary: 'The audit log as JSON, newest first',
    description:
      'Owners and admins only; the same filters as the page, every entry of the last year (at most 100,000).',
    access: 'user',
    limit: 'export',
    query: auditExportQuerySchema,
    answer: z.array(auditEntryView),
  },
});
