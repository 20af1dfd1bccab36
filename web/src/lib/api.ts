import { useState } from 'react';
import { notePositions, positionHeaders } from './positions';
import { confirmPassword } from './reauth';

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
    /**
     * GETs the page asked for before the code that reads them had loaded, by URL or key: index.html
     * asks for the current user, and for the dashboard's GraphQL query on a visit to it; the
     * dashboard's route asks for that query when the app's first visit there is not its first page.
     */
    __shiplogEarly?: Record<string, Promise<Response> | undefined>;
  }
}

/** The answer to a GET the page already asked for, once: later reads ask again. */
export function takeEarly(key: string): Promise<Response> | undefined {
  const early = globalThis.window?.__shiplogEarly;
  const response = early?.[key];
  if (early) delete early[key];
  return response;
}

/**
 * Starts a GET now, for the code that will read it once it has loaded (`takeEarly`), unless the page
 * has already asked for it (index.html, for the visit it loaded).
 */
export function askEarly(key: string, request: () => Promise<Response>): void {
  window.__shiplogEarly ??= {};
  window.__shiplogEarly[key] ??= request();
}

/** Forgets the early answers nothing has read: a visit given up before its loader ran asks again. */
export function dropEarly(): void {
  window.__shiplogEarly = {};
}

export interface RequestOptions {
  /** A create's `Idempotency-Key` (`Creates`): the server makes one record for every request that carries it. */
  idempotencyKey?: string;
}

export async function apiRequest<T>(method: string, url: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return (await apiAnswer<T>(method, url, body, options)).data;
}

/** How long the app waits before it sends again a request the server answered `CATCHING_UP`. */
export const CATCHING_UP_RETRY_MS = 1000;

/** As `apiRequest`, with the answer's headers beside its data (a page's total count, say). */
export async function apiAnswer<T>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
  again: { confirmed?: boolean; retried?: boolean } = {},
): Promise<{ data: T; headers: Headers }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { accept: 'application/json', ...positionHeaders() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const response = await ((method === 'GET' ? takeEarly(url) : undefined) ??
    fetch(url, {
      method,
      credentials: 'include',
      // A change shows before the server has it: one made just before the page goes (a tick, then a
      // reload) still reaches it. The browser keeps such requests up to 64 KB of body.
      keepalive: method !== 'GET' && (text?.length ?? 0) < 60_000,
      // Public pages may be kept by shared caches for a moment; the app always asks whether its copy
      // is still current (a 304 costs the server nothing), so an owner sees their own edit at once.
      cache: 'no-cache',
      headers,
      body: text,
    }));
  notePositions(response);
  if (!response.ok) {
    const error = await errorOf(response);
    // A sensitive change a while after sign-in: the password again, then the same request once more.
    if (error.code === 'REAUTH_REQUIRED' && !again.confirmed && (await confirmPassword()))
      return apiAnswer<T>(method, url, body, options, { ...again, confirmed: true });
    // The server was still applying this user's previous change and did nothing: it asked for the
    // request again in a moment, which the app does once for them before it shows the message.
    if (error.code === 'CATCHING_UP' && !again.retried) {
      await new Promise((resolve) => setTimeout(resolve, CATCHING_UP_RETRY_MS));
      return apiAnswer<T>(method, url, body, options, { ...again, retried: true });
    }
    throw error;
  }
  return { data: readAt(await jsonOrNull(response), response) as T, headers: response.headers };
}

/**
 * A form's creates (a project, a reminder, a release, a message…), each sent with an `Idempotency-Key`
 * made once per submission, so the server makes one record however often the request arrives. The
 * same submission sent again (identical, before one was answered as made: a second click, a retry
 * after no answer) carries the same key; once the server has answered one as made, the next gets a new
 * one, so the same text posted twice on purpose is two records. Its form keeps one (`useCreates`).
 */
export class Creates {
  #pending: { request: string; key: string } | undefined;

  async post<T>(url: string, body: unknown): Promise<T> {
    const request = JSON.stringify([url, body]);
    if (this.#pending?.request !== request) this.#pending = { request, key: newIdempotencyKey() };
    const answer = await apiRequest<T>('POST', url, body, { idempotencyKey: this.#pending.key });
    if (this.#pending?.request === request) this.#pending = undefined;
    return answer;
  }
}

/** The `Creates` of one mounted form (or of the mutation hook it calls). */
export function useCreates(): Creates {
  return useState(() => new Creates())[0];
}

/** 128 random bits as hex; `crypto.randomUUID` exists only on secure origins, this on every one. */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Where each answer's data stands in the live feed: the gateway's `x-shiplog-seq` (lib/live.ts). */
export const seqs = new WeakMap<object, number>();

/** Notes where `data` stands, as `response` says; answers `data`. */
export function readAt<T>(data: T, response: Response): T {
  const seq = Number(response.headers.get('x-shiplog-seq'));
  if (data && typeof data === 'object' && seq) seqs.set(data, seq);
  return data;
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
