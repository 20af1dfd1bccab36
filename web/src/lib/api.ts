/**
 * Every call of the app goes through here (spec/core.md §7–§8): cookies always sent, JSON only when
 * there is a body, and any non-OK answer raised as an error whose message is `<status>: <text>`.
 * The text is the server's `message` from our fixed error body, or the raw body / status text.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly fieldErrors: Record<string, string[]> | undefined;

  constructor(status: number, text: string, body: { code?: string; fieldErrors?: Record<string, string[]> } | null) {
    super(`${status}: ${text}`);
    this.status = status;
    this.code = body?.code;
    this.fieldErrors = body?.fieldErrors;
  }
}

declare global {
  interface Window {
    /** GETs the page started before the app's modules loaded (index.html), by URL. */
    __shiplogEarly?: Record<string, Promise<Response> | undefined>;
  }
}

/** The answer to a GET the page already asked for, once: later reads ask again. */
function takeEarly(url: string): Promise<Response> | undefined {
  const early = globalThis.window?.__shiplogEarly;
  const response = early?.[url];
  if (early) delete early[url];
  return response;
}

/**
 * Whether someone is signed in, by the page's early ask for the current user, as soon as its answer
 * starts to arrive; undefined when the page did not ask, or the app has read that answer already.
 */
export function earlySignedIn(): Promise<boolean> | undefined {
  return globalThis.window?.__shiplogEarly?.['/api/user']?.then(
    (response) => response.ok,
    () => false,
  );
}

export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await ((method === 'GET' ? takeEarly(url) : undefined) ??
    fetch(url, {
      method,
      credentials: 'include',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
  if (!response.ok) throw await errorOf(response);
  return (await jsonOrNull(response)) as T;
}

async function jsonOrNull(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** A non-OK answer as an `ApiError`: the server's `message` from our fixed error body, or the raw text. */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.clone().text();
  const parsed = (await jsonOrNull(response)) as {
    message?: unknown;
    code?: string;
    fieldErrors?: Record<string, string[]>;
  } | null;
  const message = typeof parsed?.message === 'string' ? parsed.message : text || response.statusText;
  return new ApiError(response.status, message, parsed);
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
