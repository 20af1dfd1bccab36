import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition } from '@shiplog/service-kit';
import { type IdentityEnv, identityEnv } from './env.ts';
import { messagesApi } from './messages/api.ts';
import { messagesProjection } from './read-models/messages.ts';
import { identityApi } from './user/api.ts';

/** identity: accounts and credentials. Streams `user-<id>` and `username-<name>`. */
export const identityService: ServiceDefinition<IdentityEnv> = {
  name: 'identity',
  env: identityEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [messagesProjection],
  // What the user wrote to the administrators goes with the account; the rest is in shredded events.
  forgetUser: deleteUserRows('identity.contact_messages'),
  async setup(context) {
    const api = identityApi(context);
    const messages = messagesApi(context);
    await api.ensureAdmin();
    return {
      routes: (router) => {
        api.routes(router);
        messages.routes(router);
      },
    };
  },
};
