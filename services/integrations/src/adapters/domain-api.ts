import { AppError } from '@shiplog/errors';
import { type Outbound, type OutboundResponse, RefusedAddressError, ResponseTooLargeError } from '@shiplog/outbound';
import {
  type AuthMethod,
  authMethods,
  type DiagnosticsResponse,
  type DiagnosticsResult,
  type Domain,
  type IntegrationForm,
  type TestConnectionResponse,
} from '@shiplog/schemas';

/**
 * An external domain-management API as Shiplog calls it (../shared/ARCHITECTURE.md): `GET
 * {baseUrl}/api/domains` answering a list of domains, or an object holding it under `domains` or
 * `data`; the key as `Authorization: Bearer` by default, and in diagnostics also as `X-API-Key`,
 * `Api-Key` or the `api_key` query parameter. Every request goes through Outbound (no private address).
 */

const AUTH_LABELS: Record<AuthMethod, { test: string; authHeader: string }> = {
  Bearer: { test: 'Bearer token', authHeader: 'Authorization: Bearer <key>' },
  'X-API-Key': { test: 'X-API-Key header', authHeader: 'X-API-Key: <key>' },
  'Api-Key': { test: 'Api-Key header', authHeader: 'Api-Key: <key>' },
  api_key: { test: 'api_key query parameter', authHeader: '?api_key=<key>' },
};

/** How much of a body the connection test shows (spec/account.md §8). */
const PREVIEW_CHARACTERS = 200;

/** The domains endpoint of a base URL: `/api/domains` under its path, without a doubled slash. */
export function domainsUrl(baseUrl: string, apiKey: string, auth: AuthMethod): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/domains`;
  if (auth === 'api_key') url.searchParams.set('api_key', apiKey);
  return url;
}

function authHeaders(apiKey: string, auth: AuthMethod): Record<string, string> {
  switch (auth) {
    case 'Bearer':
      return { authorization: `Bearer ${apiKey}` };
    case 'X-API-Key':
      return { 'x-api-key': apiKey };
    case 'Api-Key':
      return { 'api-key': apiKey };
    case 'api_key':
      return {};
  }
}

/** The external API did not give the domains: the message is the spec's, for the person to act on. */
export class DomainApiError extends AppError {
  readonly response: OutboundResponse | null;

  constructor(message: string, response: OutboundResponse | null = null) {
    // 502: the fault is upstream. Never 401, which means "not signed in" to the web app.
    super(502, 'INTEGRATION_UPSTREAM_FAILED', message);
    this.response = response;
  }
}

/** The domain list out of a JSON answer: an array, or one under `domains` or `data`; null if neither. */
export function domainsIn(json: unknown): Domain[] | null {
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object'
      ? [(json as Record<string, unknown>).domains, (json as Record<string, unknown>).data].find(Array.isArray)
      : undefined;
  if (!list) return null;
  const text = (value: unknown) =>
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
  return list.flatMap((item): Domain[] => {
    if (!item || typeof item !== 'object') return [];
    const d = item as Record<string, unknown>;
    const id = text(d.id);
    const domainName = text(d.domainName);
    if (!id || !domainName) return [];
    return [
      {
        id,
        domainName,
        status: text(d.status),
        hostingProvider: text(d.hostingProvider),
        expiryDate: text(d.expiryDate),
        lastChecked: text(d.lastChecked),
      },
    ];
  });
}

export class DomainApi {
  readonly #outbound: Outbound;

  constructor(outbound: Outbound) {
    this.#outbound = outbound;
  }

  /** Why this base URL can never be called (a private address, say), or null. Checked on save and test. */
  refusalOf(baseUrl: string): string | null {
    return this.#outbound.refusalOf(new URL(baseUrl));
  }

  /**
   * The domains, with the key sent the default way (Bearer); when that is refused (401 or 403), the
   * other ways diagnostics try, in order, so an API that wants its key in `X-API-Key` works without a
   * setting. Throws DomainApiError with the spec's message.
   */
  async domains(baseUrl: string, apiKey: string): Promise<Domain[]> {
    let first: DomainApiError | undefined;
    for (const auth of authMethods) {
      try {
        return (await this.#read(baseUrl, apiKey, auth)).domains;
      } catch (error) {
        if (!(error instanceof DomainApiError)) throw error;
        first ??= error;
        const status = error.response?.status;
        if (status !== 401 && status !== 403) break;
      }
    }
    throw first!;
  }

  /** Test Connection: the form's values, nothing stored (spec/account.md §7–§8). */
  async test(form: IntegrationForm): Promise<TestConnectionResponse> {
    try {
      const { domains, response } = await this.#read(form.baseUrl, form.apiKey, 'Bearer');
      const found = `Found ${domains.length} domain${domains.length === 1 ? '' : 's'}.`;
      return {
        success: true,
        message: withDetails(`Connection successful! ${found}`, response),
        debug: debugOf(response),
      };
    } catch (error) {
      if (!(error instanceof DomainApiError)) throw error;
      return {
        success: false,
        message: withDetails(error.message, error.response),
        debug: debugOf(error.response),
      };
    }
  }

  /**
   * Advanced Diagnostics: each way of sending the key, tried at once and each time-limited (the
   * Outbound's limit), so the whole takes one attempt's time, well under 30 seconds.
   */
  async diagnose(form: IntegrationForm): Promise<DiagnosticsResponse> {
    const results = await Promise.all(
      authMethods.map(async (auth): Promise<DiagnosticsResult> => {
        const labels = AUTH_LABELS[auth];
        try {
          const { response } = await this.#read(form.baseUrl, form.apiKey, auth);
          return { ...labels, success: true, status: response.status, error: null };
        } catch (error) {
          if (!(error instanceof DomainApiError)) throw error;
          return { ...labels, success: false, status: error.response?.status ?? null, error: error.message };
        }
      }),
    );
    const working = results.find((r) => r.success);
    return {
      success: Boolean(working),
      message: working
        ? `Recommended authentication method: ${working.test} (${working.authHeader}).`
        : 'No authentication method worked. Check the base URL and the API key.',
      results,
    };
  }

  async #read(
    baseUrl: string,
    apiKey: string,
    auth: AuthMethod,
  ): Promise<{ domains: Domain[]; response: OutboundResponse }> {
    let response: OutboundResponse;
    try {
      response = await this.#outbound.get(domainsUrl(baseUrl, apiKey, auth), {
        accept: 'application/json',
        ...authHeaders(apiKey, auth),
      });
    } catch (error) {
      throw new DomainApiError(networkMessage(error, apiKey));
    }
    if (response.status < 200 || response.status > 299) {
      throw new DomainApiError(`Error ${response.status}: ${response.statusText}`, response);
    }
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch (error) {
      throw new DomainApiError(`Invalid JSON response: ${(error as Error).message}`, response);
    }
    const domains = domainsIn(json);
    if (!domains) {
      throw new DomainApiError(
        'Connection failed: the answer holds no list of domains (expected an array, or one under "domains" or "data")',
        response,
      );
    }
    return { domains, response };
  }
}

function networkMessage(error: unknown, apiKey: string): string {
  if (error instanceof RefusedAddressError) return `Network error: ${error.message}`;
  if (error instanceof ResponseTooLargeError) return `Connection failed: ${error.message}`;
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const reason =
    e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT'
      ? 'the API did not answer in time'
      : (e.cause?.message ?? e.message ?? String(error));
  // A message can quote the URL, and the URL can hold the key (api_key): never echo it.
  return `Network error: ${reason.split(apiKey).join('<key>')}`;
}

/** The spec's details, appended: status, content type, and the first 200 characters of the body. */
function withDetails(message: string, response: OutboundResponse | null): string {
  if (!response) return message;
  const debug = debugOf(response);
  return `${message}\n\nStatus: ${debug.statusCode}\nContent-Type: ${debug.contentType ?? 'none'}\nResponse: ${debug.responseData}`;
}

function debugOf(response: OutboundResponse | null): TestConnectionResponse['debug'] {
  return {
    statusCode: response?.status ?? null,
    contentType: response?.contentType ?? null,
    responseData: response ? response.body.slice(0, PREVIEW_CHARACTERS) : null,
  };
}
