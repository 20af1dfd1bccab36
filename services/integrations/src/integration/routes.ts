import { importDomainsSchema, integrationFormSchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** An integration as read (`Integration`): never its API key. */
const integrationView = z.object({
  id: z.string(),
  userId: z.string(),
  siteName: z.string(),
  baseUrl: z.string(),
  isActive: z.boolean(),
  lastUsed: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A domain as the external API lists it (`Domain`), and whether this integration imported it already. */
const domainView = z.object({
  id: z.string(),
  domainName: z.string(),
  status: z.string().nullable(),
  hostingProvider: z.string().nullable(),
  expiryDate: z.string().nullable(),
  lastChecked: z.string().nullable(),
  imported: z.boolean(),
});

/** What an import made (`ImportDomainsResponse`). */
const importView = z.object({
  projects: z.array(z.object({ id: z.string(), name: z.string(), domainId: z.string() })),
  message: z.string(),
  alreadyImported: z.number(),
  remindersCreated: z.number(),
});

/** Test Connection's answer (`TestConnectionResponse`). */
const testView = z.object({
  success: z.boolean(),
  message: z.string(),
  debug: z.object({
    statusCode: z.number().nullable(),
    contentType: z.string().nullable(),
    responseData: z.string().nullable(),
  }),
});

/** Advanced Diagnostics' answer (`DiagnosticsResponse`): each way of sending the key, tried. */
const diagnosticsView = z.object({
  success: z.boolean(),
  message: z.string(),
  results: z.array(
    z.object({
      test: z.string(),
      success: z.boolean(),
      authHeader: z.string(),
      status: z.number().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

/** Users' domain API integrations, and the import of their domains as projects (answered in `api.ts`). */
export const integrationRoutes = declareRoutes({
  'GET /integrations': {
    tag: 'Integrations',
    summary: 'The saved integrations',
    access: 'user',
    answer: z.array(integrationView),
  },
  'POST /integrations': {
    tag: 'Integrations',
    summary: 'Save an integration',
    access: 'user',
    idempotent: true,
    body: integrationFormSchema,
    status: 201,
    answer: integrationView,
  },
  'DELETE /integrations/:id': {
    tag: 'Integrations',
    summary: 'Remove an integration',
    access: 'user',
    status: 204,
  },
  // Calls to the user's domain API: listing its domains and importing them, testing and diagnosing it.
  'POST /integration/test': {
    tag: 'Integrations',
    summary: 'Test a connection to a domain API',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 60_000,
    body: integrationFormSchema,
    answer: testView,
  },
  'POST /integration/diagnostics': {
    tag: 'Integrations',
    summary: 'Diagnose a connection to a domain API',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 60_000,
    body: integrationFormSchema,
    answer: diagnosticsView,
  },
  'GET /integrations/:id/projects': {
    tag: 'Integrations',
    summary: 'The domains the integration’s API lists',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 120_000,
    answer: z.array(domainView),
  },
  'POST /integrations/:id/import': {
    tag: 'Integrations',
    summary: 'Import domains as projects',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 120_000,
    body: importDomainsSchema,
    answer: importView,
  },
});
