import { type ConsumerDefinition, causedBy, handleCommand, type ServiceContext } from '@shiplog/service-kit';
import type { IntegrationsEnv } from '../../env.ts';
import { githubDecider } from '../../github/decide.ts';
import { githubStream } from '../../github/github.ts';
import { githubTables } from '../../github/links.ts';
import { integrationDecider } from '../../integration/decide.ts';
import { integrationsStream } from '../../integration/integration.ts';

/**
 * A deleted project that was imported from a domain frees the domain: the integration's domain list
 * shows it as not imported, and it can be imported again. Appends (ImportedProjectDeleted), so it is
 * a reaction, in the consumer's transaction; a project that came from no domain changes nothing. One
 * joined to a GitHub repository is parted from it: the repository can be imported again, and its
 * deliveries record nothing.
 */
export function deletedProjectsReaction(context: ServiceContext<IntegrationsEnv>): ConsumerDefinition {
  return {
    name: 'deleted-projects',
    sources: ['projects'],
    only: 'ProjectDeleted',
    handlers: {
      ProjectDeleted: async (event, tx) => {
        const { userId, projectId } = event.data;
        await handleCommand(
          context.store,
          integrationsStream(userId),
          integrationDecider,
          { type: 'ForgetImportedProject', userId, projectId },
          // An import racing this append: decided again on the new state.
          { ...causedBy(event, tx, `forget:${event.id}`, userId), retries: 3 },
        );
        const link = await githubTables.link(tx, projectId);
        if (link) {
          await handleCommand(
            context.store,
            githubStream(link.userId),
            githubDecider,
            { type: 'Unlink', userId: link.userId, projectId },
            { ...causedBy(event, tx, `github-unlink:${event.id}`, link.userId), retries: 3 },
          );
          await githubTables.unlinked(tx, projectId);
        }
      },
    },
  };
}
