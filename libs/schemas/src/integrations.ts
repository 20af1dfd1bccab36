import { z } from 'zod';

/**
 * External API integrations (spec/account.md §3, §5, §7): a user's connection to a domain-management
 * service, shared by the web form and the integrations service.
 */
export const SITE_NAME_MESSAGE = 'Site name must be at least 3 characters';
export const API_KEY_MESSAGE = 'API key appears to be too short';
export const BASE_URL_MESSAGE = 'Please enter a valid URL including http:// or https://';

/** A base URL as a person types it: http or https, with a host; trailing slashes are not doubled later. */
export const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** The form's values: what Save stores, and what Test Connection and Advanced Diagnostics try. */
export const integrationFormSchema = z.object({
  siteName: z
    .string({ error: SITE_NAME_MESSAGE })
    .trim()
    .min(3, SITE_NAME_MESSAGE)
    .max(100, 'Site name must be at most 100 characters'),
  baseUrl: z
    .string({ error: BASE_URL_MESSAGE })
    .trim()
    .max(2000, 'The URL must be at most 2000 characters')
    .refine(isHttpUrl, BASE_URL_MESSAGE),
  apiKey: z
    .string({ error: API_KEY_MESSAGE })
    .trim()
    .min(8, API_KEY_MESSAGE)
    .max(4000, 'API key must be at most 4000 characters'),
});
export type IntegrationForm = z.infer<typeof integrationFormSchema>;

/** Most domains one import takes: an account's whole list in one call. */
export const IMPORT_MAX_DOMAINS = 5000;
/** A renewal reminder this many days before a domain expires, unless the user says otherwise. */
export const RENEWAL_REMINDER_DAYS = 30;
export const SELECT_DOMAINS_MESSAGE = 'Select at least one domain to import';

/**
 * `POST /api/integrations/{id}/import`: the selected domains' ids (as the external API gave them,
 * text or numbers), and, beyond the spec, whether to add a reminder before each one's expiry.
 */
export const importDomainsSchema = z.object({
  projectIds: z
    .array(z.union([z.string().min(1).max(200), z.number()]), { error: SELECT_DOMAINS_MESSAGE })
    .min(1, SELECT_DOMAINS_MESSAGE)
    .max(IMPORT_MAX_DOMAINS, `Import at most ${IMPORT_MAX_DOMAINS} domains at a time`)
    .transform((ids) => [...new Set(ids.map(String))]),
  renewalReminders: z.boolean({ error: 'renewalReminders must be true or false' }).optional().default(false),
  reminderDaysBefore: z
    .number({ error: 'Reminder days must be a number' })
    .int('Reminder days must be a whole number')
    .min(1, 'Reminder days must be between 1 and 365')
    .max(365, 'Reminder days must be between 1 and 365')
    .optional()
    .default(RENEWAL_REMINDER_DAYS),
});
export type ImportDomainsInput = z.input<typeof importDomainsSchema>;

/** An integration as read (spec/account.md §3): never its API key. */
export interface Integration {
  id: string;
  userId: string;
  siteName: string;
  baseUrl: string;
  isActive: boolean;
  lastUsed: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A domain as the external API lists it (spec/account.md §3); ids are carried as text. */
export interface Domain {
  id: string;
  domainName: string;
  status: string | null;
  hostingProvider: string | null;
  expiryDate: string | null;
  lastChecked: string | null;
}

export interface ImportDomainsResponse {
  /** The projects this import created. */
  projects: { id: string; name: string; domainId: string }[];
  /** 'Imported N of M domains'. */
  message: string;
  /** Selected domains imported before from this integration: not created again. */
  alreadyImported: number;
  remindersCreated: number;
}

export interface TestConnectionResponse {
  success: boolean;
  message: string;
  debug: { statusCode: number | null; contentType: string | null; responseData: string | null };
}

export const authMethods = ['Bearer', 'X-API-Key', 'Api-Key', 'api_key'] as const;
export type AuthMethod = (typeof authMethods)[number];

export interface DiagnosticsResult {
  test: string;
  success: boolean;
  authHeader: string;
  status: number | null;
  error: string | null;
}

export interface DiagnosticsResponse {
  success: boolean;
  message: string;
  results: DiagnosticsResult[];
}
