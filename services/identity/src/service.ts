import { join } from 'node:path';
import { createMailer, deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { adminCommentsApi } from './admin-comment/api.ts';
import { contactMessagesApi } from './contact-message/api.ts';
import { type IdentityEnv, identityEnv } from './env.ts';
import { adminUsersProjection } from './read-models/admin-users/index.ts';
import { messagesProjection } from './read-models/messages/index.ts';
import { workspacesProjection } from './read-models/workspaces/index.ts';
import { createWorkspaceKeyShredder } from './timers/shred-workspace-keys/index.ts';
import { accounts as accountsOf } from './user/accounts.ts';
import { adminUsersApi } from './user/admin-api.ts';
import { userApi } from './user/api.ts';
import { apiTokensApi } from './user/api-token-api.ts';
import { emailVerificationApi } from './user/email-verification.ts';
import { workspacesApi } from './workspace/api.ts';

/** identity: accounts, credentials and team workspaces. Streams `user-<id>`, `username-<name>` and `workspace-<id>`. */
export const identityService: ServiceDefinition<IdentityEnv> = {
  name: 'identity',
  env: identityEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [messagesProjection, adminUsersProjection, workspacesProjection],
  // What the user wrote to the administrators, their row in the admin's table and when their API
  // tokens were last used go with the account; the rest (the tokens too) is in shredded events.
  forgetUser: deleteUserRows('identity.contact_messages', 'identity.admin_users', 'identity.api_token_usage'),
  async setup(context) {
    const mailer = createMailer({
      smtpUrl: context.config.SMTP_URL,
      from: context.config.MAIL_FROM,
      logger: context.logger,
    });
    const emails = emailVerificationApi(context, mailer);
    const accounts = accountsOf(context);
    const served = servedTogether(
      userApi(context, accounts, emails),
      emails,
      apiTokensApi(context, accounts),
      adminUsersApi(context, accounts),
      adminCommentsApi(context),
      contactMessagesApi(context),
      workspacesApi(context, accounts, mailer),
    );
    await accounts.ensureAdmin();
    const shredder = createWorkspaceKeyShredder(context);
    shredder.start();
    return {
      ...served,
      onStop: async () => {
        await shredder.stop();
        await mailer.close();
      },
    };
  },
};
