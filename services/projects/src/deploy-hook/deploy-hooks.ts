import { secretLinks } from '@shiplog/service-kit';

/**
 * The deploy webhooks' table (`projects.deploy_hooks`): one per project. It goes with its project (the
 * project list's projector calls `forget` on ProjectDeleted) and with the account.
 */
export const deployHooks = secretLinks<{ project_id: string; user_id: string }>('projects.deploy_hooks', 'project_id');
