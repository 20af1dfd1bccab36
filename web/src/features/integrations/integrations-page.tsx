import { ConfigurationCard } from './configuration-card';
import { GitHubCard } from './github-card';
import { IntegrationsList } from './integrations-list';

/** `/integrations` and `/integration-config` (spec/account.md §2): one page. */
export function IntegrationsPage() {
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <ConfigurationCard />
      <IntegrationsList />
      <GitHubCard />
    </div>
  );
}
