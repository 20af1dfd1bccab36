import { ForbiddenError } from '@shiplog/errors';
import { inPaidTier, isSubscribed, type SubscriptionView, WORKSPACE_READ_ONLY_MESSAGE } from '@shiplog/schemas';
import type { Caller, ServiceClients } from '@shiplog/service-kit';
import type pg from 'pg';
import { currentSubscription } from './plan-gates.ts';
import type { WorkspaceMembers } from './workspace-members.ts';

/**
 * A team workspace's plan is its owners' (any one of them on the paid tier keeps it), asked of billing
 * at the moment of the decision, as every plan gate is (decision 014). While none has a plan the
 * workspace is read-only for everyone: a change to one of its projects is refused (403
 * `SUBSCRIPTION_REQUIRED`), nothing is deleted. A personal project's gate is its caller's own.
 */
export function teamPlans(deps: {
  services: ServiceClients;
  pool: pg.Pool;
  /** Who owns a workspace: a service's `workspace_members` (identity: its own read model). */
  members: Pick<WorkspaceMembers, 'ownersOf'>;
  now: () => Date;
}) {
  const { services, pool, members, now } = deps;

  /** Each owner's subscription, as billing answers it now. */
  async function ownersPlans(workspaceId: string, caller: Caller): Promise<SubscriptionView[]> {
    const owners = await members.ownersOf(pool, workspaceId);
    return Promise.all(
      owners.map((userId) =>
        currentSubscription(services, { userId, username: null, isAdmin: false, correlationId: caller.correlationId }),
      ),
    );
  }

  /** Whether none of the workspace's owners has the paid tier now: its projects take no changes. */
  const readOnly = async (workspaceId: string, caller: Caller): Promise<boolean> =>
    !(await ownersPlans(workspaceId, caller)).some((plan) => inPaidTier(plan, now()));

  return {
    readOnly,

    /** For `serveRoutes`' `writable`: refuses a change to a team project while its workspace has no plan. */
    async writable(project: { workspaceId?: string | null }, caller: Caller): Promise<void> {
      if (project.workspaceId && (await readOnly(project.workspaceId, caller)))
        throw new ForbiddenError(WORKSPACE_READ_ONLY_MESSAGE, 'SUBSCRIPTION_REQUIRED');
    },

    /** Whether the subscribed tier's features (Quick Update) are the project's: its owners' plan, else the caller's. */
    async subscribed(project: { workspaceId?: string | null }, caller: Caller): Promise<boolean> {
      if (!project.workspaceId) return isSubscribed((await currentSubscription(services, caller)).status);
      return (await ownersPlans(project.workspaceId, caller)).some((plan) => isSubscribed(plan.status));
    },
  };
}

export type TeamPlans = ReturnType<typeof teamPlans>;
