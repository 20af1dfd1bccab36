import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { reportPosition, requireUserId, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { IdentityEnv } from '../env.ts';
import { adminUserCounts, adminUsersPage } from '../read-models/admin-users/index.ts';
import type { Accounts } from './accounts.ts';
import { adminUserRoutes } from './routes.ts';

/** The admin dashboard's User Management: the user table and its counters, and deleting an account. */
export function adminUsersApi(context: ServiceContext<IdentityEnv>, accounts: Accounts) {
  const { loadUser, deleteUser } = accounts;

  return serveRoutes(adminUserRoutes, {
    // The admin dashboard's User Management: searched and paged here, the total in X-Total-Count.
    'GET /admin/users': async (_req, res, parsed) => {
      const query = parsed.query;
      const { users, total } = await adminUsersPage(context.pool, query);
      res.setHeader('X-Total-Count', String(total));
      res.json(users);
    },

    'GET /admin/users/summary': async (_req, res) => {
      res.json(await adminUserCounts(context.pool));
    },

    // The same cascade as a user deleting themselves; the gateway then ends every session of the account.
    'DELETE /admin/users/:userId': async (req, res) => {
      const adminId = requireUserId(req);
      const userId = req.params.userId;
      const user = isId(userId) ? await loadUser(userId) : null;
      if (!user) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
      const position = await deleteUser(user, adminId, req);
      if (position) reportPosition(res, 'identity', position);
      res.status(204).end();
    },
  });
}
