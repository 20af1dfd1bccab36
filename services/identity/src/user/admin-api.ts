import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { adminUsersQuerySchema } from '@shiplog/schemas';
import { parseInput, reportPosition, requireAdmin, type ServiceContext } from '@shiplog/service-kit';
import type { Router } from 'express';
import type { IdentityEnv } from '../env.ts';
import { adminUserCounts, adminUsersPage } from '../read-models/admin-users/index.ts';
import type { Accounts } from './accounts.ts';

/** The admin dashboard's User Management: the user table and its counters, and deleting an account. */
export function adminUsersApi(context: ServiceContext<IdentityEnv>, accounts: Accounts) {
  const { loadUser, deleteUser } = accounts;

  function routes(router: Router) {
    // The admin dashboard's User Management: searched and paged here, the total in X-Total-Count.
    router.get('/admin/users', async (req, res) => {
      requireAdmin(req);
      const query = parseInput(adminUsersQuerySchema, req.query);
      const { users, total } = await adminUsersPage(context.pool, query);
      res.setHeader('X-Total-Count', String(total));
      res.json(users);
    });

    router.get('/admin/users/summary', async (req, res) => {
      requireAdmin(req);
      res.json(await adminUserCounts(context.pool));
    });

    // The same cascade as a user deleting themselves; the gateway then ends every session of the account.
    router.delete('/admin/users/:userId', async (req, res) => {
      const admin = requireAdmin(req);
      const userId = req.params.userId;
      const user = isId(userId) ? await loadUser(userId) : null;
      if (!user) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
      const position = await deleteUser(user, admin.userId, req);
      if (position) reportPosition(res, 'identity', position);
      res.status(204).end();
    });
  }

  return { routes };
}
