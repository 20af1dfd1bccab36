import { ConflictError, NotFoundError } from '@shiplog/errors';
import type { Decider } from '@shiplog/service-kit';
import {
  type ConfiguredIntegration,
  evolveUserIntegrations,
  type IntegrationEvent,
  initialUserIntegrations,
  siteNameKey,
  type UserIntegrations,
} from './integration.ts';

export type IntegrationCommand =
  | {
      type: 'ConfigureIntegration';
      userId: string;
      integrationId: string;
      siteName: string;
      baseUrl: string;
      /** Sealed by the API before it gets here: a decider never holds a key in clear. */
      sealedKey: string;
    }
  | { type: 'RecordUse'; userId: string; integrationId: string }
  | {
      type: 'RecordImport';
      userId: string;
      integrationId: string;
      domains: { domainId: string; domainName: string; projectId: string }[];
    }
  | { type: 'DeleteIntegration'; userId: string; integrationId: string }
  /** A project was deleted: if it came from a domain, that domain can be imported again. */
  | { type: 'ForgetImportedProject'; userId: string; projectId: string };

export class IntegrationNotFoundError extends NotFoundError {
  constructor() {
    super('Integration not found', 'INTEGRATION_NOT_FOUND');
  }
}

/** The caller's live integration with this id; another user's, or a deleted one, is not found. */
export function integrationOf(state: UserIntegrations, integrationId: string): ConfiguredIntegration {
  const integration = state.integrations.get(integrationId);
  if (!integration) throw new IntegrationNotFoundError();
  return integration;
}

export function decideIntegration(command: IntegrationCommand, state: UserIntegrations, now: Date): IntegrationEvent[] {
  const at = now.toISOString();
  if (command.type === 'ForgetImportedProject') {
    const { userId, projectId } = command;
    return [...state.integrations.values()].flatMap((integration) =>
      [...integration.imported]
        .filter(([, imported]) => imported === projectId)
        .map(([domainId]) => ({
          type: 'ImportedProjectDeleted' as const,
          data: { integrationId: integration.id, userId, domainId, projectId, at },
        })),
    );
  }
  const { userId, integrationId } = command;
  switch (command.type) {
    case 'ConfigureIntegration': {
      // The same save again (its Idempotency-Key names the same integration): it is made already.
      if (state.integrations.has(integrationId)) return [];
      const taken = [...state.integrations.values()].some(
        (i) => siteNameKey(i.siteName) === siteNameKey(command.siteName),
      );
      if (taken) {
        throw new ConflictError(`An integration named "${command.siteName}" already exists`, 'INTEGRATION_EXISTS');
      }
      return [
        {
          type: 'IntegrationConfigured',
          data: { integrationId, userId, siteName: command.siteName, baseUrl: command.baseUrl, at },
        },
        { type: 'IntegrationKeySet', data: { integrationId, userId, sealedKey: command.sealedKey } },
      ];
    }
    case 'RecordUse':
      integrationOf(state, integrationId);
      return [{ type: 'IntegrationUsed', data: { integrationId, userId, at } }];
    case 'RecordImport': {
      const integration = integrationOf(state, integrationId);
      // A domain is imported once from an integration: a repeat (a retry, a second import) adds nothing.
      const seen = new Set(integration.imported.keys());
      const domains = command.domains.filter((d) => !seen.has(d.domainId) && seen.add(d.domainId));
      if (domains.length === 0) return [];
      return [{ type: 'DomainsImported', data: { integrationId, userId, domains, at } }];
    }
    case 'DeleteIntegration':
      integrationOf(state, integrationId);
      return [{ type: 'IntegrationDeleted', data: { integrationId, userId, at } }];
  }
}

export const integrationDecider: Decider<UserIntegrations, IntegrationCommand, IntegrationEvent> = {
  initialState: initialUserIntegrations,
  evolve: evolveUserIntegrations,
  decide: decideIntegration,
};
