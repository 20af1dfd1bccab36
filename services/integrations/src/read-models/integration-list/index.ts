import type { ProjectionDefinition } from '@shiplog/service-kit';

/**
 * `api_integrations` (spec/account.md §3), one row per live integration, for reports and operators:
 * the API answers from the user's stream, which is small and always current. No key is ever here.
 */
export const integrationListProjection: ProjectionDefinition = {
  name: 'integration-list',
  sources: ['integrations'],
  tables: ['api_integrations'],
  handlers: {
    IntegrationConfigured: async (event, _tx, batch) => {
      const { integrationId, userId, siteName, baseUrl, at } = event.data;
      batch.defer(
        `INSERT INTO integrations.api_integrations (id, user_id, site_name, base_url, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO NOTHING`,
        [integrationId, userId, siteName, baseUrl, at],
      );
    },
    IntegrationUsed: async (event, _tx, batch) => {
      batch.defer('UPDATE integrations.api_integrations SET last_used = $2, updated_at = $2 WHERE id = $1', [
        event.data.integrationId,
        event.data.at,
      ]);
    },
    DomainsImported: async (event, _tx, batch) => {
      batch.defer('UPDATE integrations.api_integrations SET last_used = $2, updated_at = $2 WHERE id = $1', [
        event.data.integrationId,
        event.data.at,
      ]);
    },
    IntegrationDeleted: async (event, _tx, batch) => {
      batch.defer('DELETE FROM integrations.api_integrations WHERE id = $1', [event.data.integrationId]);
    },
  },
};
