import type { EventOf } from '@shiplog/events';
import type { Integration } from '@shiplog/schemas';

/**
 * One user's integrations, folded from their `integrations-<userId>` stream. One stream per user, so
 * that a site name is unique among the user's integrations by the stream's own expected revision (two
 * saves of one name racing cannot both pass), and an integration id that is not in the caller's
 * stream is simply not found.
 */
export type IntegrationEvent =
  | EventOf<'IntegrationConfigured'>
  | EventOf<'IntegrationKeySet'>
  | EventOf<'IntegrationUsed'>
  | EventOf<'DomainsImported'>
  | EventOf<'ImportedProjectDeleted'>
  | EventOf<'IntegrationDeleted'>;

export interface ConfiguredIntegration {
  id: string;
  siteName: string;
  baseUrl: string;
  /** The API key as IntegrationKeySet holds it: sealed with INTEGRATION_KEY_SECRET (see api.ts). */
  sealedKey: string | null;
  lastUsed: string | null;
  createdAt: string;
  updatedAt: string;
  /** Each domain imported from here, by its external id: the project it became. */
  imported: Map<string, string>;
  /** How many times a domain's project was deleted: each import after one is a new project. */
  deletions: Map<string, number>;
}

export interface UserIntegrations {
  userId: string | null;
  /** Live integrations by id, in the order they were configured; a deleted one is gone. */
  integrations: Map<string, ConfiguredIntegration>;
}

export const initialUserIntegrations = (): UserIntegrations => ({ userId: null, integrations: new Map() });

export function evolveUserIntegrations(state: UserIntegrations, event: IntegrationEvent): UserIntegrations {
  const integrations = new Map(state.integrations);
  const { integrationId } = event.data;
  const current = integrations.get(integrationId);
  switch (event.type) {
    case 'IntegrationConfigured':
      integrations.set(integrationId, {
        id: integrationId,
        siteName: event.data.siteName,
        baseUrl: event.data.baseUrl,
        sealedKey: null,
        lastUsed: null,
        createdAt: event.data.at,
        updatedAt: event.data.at,
        imported: new Map(),
        deletions: new Map(),
      });
      return { userId: event.data.userId, integrations };
    case 'IntegrationKeySet':
      if (current) integrations.set(integrationId, { ...current, sealedKey: event.data.sealedKey });
      return { ...state, integrations };
    case 'IntegrationUsed':
      if (current) integrations.set(integrationId, { ...current, lastUsed: event.data.at, updatedAt: event.data.at });
      return { ...state, integrations };
    case 'DomainsImported': {
      if (!current) return state;
      const imported = new Map(current.imported);
      for (const domain of event.data.domains) imported.set(domain.domainId, domain.projectId);
      integrations.set(integrationId, { ...current, imported, lastUsed: event.data.at, updatedAt: event.data.at });
      return { ...state, integrations };
    }
    case 'ImportedProjectDeleted': {
      if (!current) return state;
      const imported = new Map(current.imported);
      imported.delete(event.data.domainId);
      const deletions = new Map(current.deletions);
      deletions.set(event.data.domainId, (deletions.get(event.data.domainId) ?? 0) + 1);
      integrations.set(integrationId, { ...current, imported, deletions });
      return { ...state, integrations };
    }
    case 'IntegrationDeleted':
      integrations.delete(integrationId);
      return { ...state, integrations };
  }
}

export const integrationsStream = (userId: string) => `integrations-${userId}`;

/** A site name as compared for uniqueness: "My Registrar" and "my registrar " are one name. */
export const siteNameKey = (siteName: string) => siteName.trim().toLowerCase();

/** The integration as read: every field but the key. Active: its key can be opened (see api.ts). */
export function integrationView(userId: string, integration: ConfiguredIntegration, isActive: boolean): Integration {
  return {
    id: integration.id,
    userId,
    siteName: integration.siteName,
    baseUrl: integration.baseUrl,
    isActive,
    lastUsed: integration.lastUsed,
    createdAt: integration.createdAt,
    updatedAt: integration.updatedAt,
  };
}
