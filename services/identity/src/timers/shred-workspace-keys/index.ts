import { repeating, type ServiceContext } from '@shiplog/service-kit';
import type { IdentityEnv } from '../../env.ts';
import { workspacesToShred } from '../../read-models/workspaces/index.ts';

/** How often deleted workspaces' keys are looked for. */
const EVERY_MS = 60 * 60 * 1000;

/**
 * How long a deleted workspace's key outlives it: its projects are deleted by the services' cascades
 * (projects' `workspace-cascade`, then each service's on `ProjectDeleted`), whose events are sealed
 * with that key, so every consumer must have read them first, a slow or stopped one included.
 */
export const WORKSPACE_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Crypto-shredding for team workspaces, as an account's deletion has it: a day after a workspace's
 * deletion, the vault destroys its key, and every event sealed with it (its projects', records',
 * reminders', monitors', its invites' addresses) is unreadable in every store and backup that holds it.
 * Every hour; what the vault has forgotten already is not asked again, so replicas and a rebuilt read
 * model (which keeps every deletion) forget nothing twice.
 */
export function createWorkspaceKeyShredder(context: ServiceContext<IdentityEnv>) {
  async function tick(now: Date = context.now()): Promise<number> {
    const due = await workspacesToShred(context.pool, new Date(now.getTime() - WORKSPACE_KEY_GRACE_MS));
    for (const workspaceId of due) await context.vault.forget(workspaceId);
    return due.length;
  }
  const loop = repeating(() => tick(), EVERY_MS, context.logger, 'workspace key shredding');
  return { tick, start: loop.start, stop: loop.stop };
}
