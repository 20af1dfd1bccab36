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
  // `github-<userId>` streams: one user's GitHub connection. None is published: the token and the
  // webhook secret are sealed with INTEGRATION_KEY_SECRET in GitHubCredentialsSet, and the rest is read
  // from the stream (and its webhook address from a lookup table kept beside it).
  /**
   * Connected as GitHub's `login`: with a token GitHub accepted, or through the server's GitHub App
   * installed as `installationId`. A repository's own webhook delivers to `/api/hooks/github/{hookKey}`.
   */
  GitHubConnected: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({
      userId: id,
      apiUrl: z.string(),
      login: z.string(),
      hookKey: z.string(),
      installationId: z.number().int().positive().optional(),
      at: isoDate,
    }),
  }),
  /** The connection's token (none through the app, whose tokens are made when needed) and its webhooks' secret. */
  GitHubCredentialsSet: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, sealedToken: z.string().nullable(), sealedSecret: z.string() }),
  }),
  /** GitHub refused the token (revoked, expired): the connection asks to be made again. */
  GitHubConnectionBroken: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, status: z.number().int(), at: isoDate }),
  }),
  /** The server's GitHub App, suspended on GitHub and so refused, is unsuspended: the connection works again. */
  GitHubConnectionRestored: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, at: isoDate }),
  }),
  GitHubDisconnected: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, at: isoDate }),
  }),
  /**
   * Repositories joined to projects (imported as new ones, or linked to existing ones): each project
   * to one repository. `hook`: whether a webhook was made through the API, is the user's to add, or
   * is the GitHub App's own (which hears every repository it is installed on).
   */
  GitHubRepositoriesLinked: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({
      userId: id,
      links: z.array(
        z.object({
          projectId: id,
          repositoryId: z.number().int(),
          fullName: z.string(),
          htmlUrl: z.string(),
          defaultBranch: z.string(),
          hook: z.enum(['created', 'manual', 'app']),
        }),
      ),
      at: isoDate,
    }),
  }),
  GitHubRepositoryUnlinked: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, projectId: id, at: isoDate }),
  }),
} as const satisfies Record<string, { owner: 'integrations' }>;
