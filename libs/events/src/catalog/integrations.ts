import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';

// integrations — `integrations-<userId>` streams: one user's connections to external
// domain-management APIs. A connection's API key is only ever in IntegrationKeySet, which is not
// published, and sealed twice there: with INTEGRATION_KEY_SECRET, then with the event (the user's key).
export const integrationEvents = {
  IntegrationConfigured: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({
      integrationId: id,
      userId: id,
      siteName: z.string(),
      baseUrl: z.string(),
      at: isoDate,
    }),
  }),
  IntegrationKeySet: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({ integrationId: id, userId: id, sealedKey: z.string() }),
  }),
  /** The integration's domains were read (its `lastUsed`). */
  IntegrationUsed: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({ integrationId: id, userId: id, at: isoDate }),
  }),
  /** Domains became projects (created through the projects service), each imported once: a use of the integration too. */
  DomainsImported: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({
      integrationId: id,
      userId: id,
      domains: z.array(z.object({ domainId: z.string(), domainName: z.string(), projectId: id })),
      at: isoDate,
    }),
  }),
  /** A project imported from a domain was deleted: the domain can be imported again. */
  ImportedProjectDeleted: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({ integrationId: id, userId: id, domainId: z.string(), projectId: id, at: isoDate }),
  }),
  /** The connection is gone; the projects it imported stay. */
  IntegrationDeleted: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({ integrationId: id, userId: id, at: isoDate }),
  }),
} as const satisfies Record<string, { owner: 'integrations' }>;
