import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { STATUS_CODES } from 'node:http';
import { isIP } from 'node:net';
import { rootCertificates, type TLSSocket } from 'node:tls';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { Agent, buildConnector, type Dispatcher, request, fetch as undiciFetch } from 'undici';

/**
 * Requests to addresses that users type in (an integration's base URL, a monitor's target), made so
 * that they can never reach inside Shiplog's network (SSRF). Only http and https, only public unicast addresses: never
 * loopback, private, link-local (the cloud metadata service at 169.254.169.254), CGNAT, unique-local,
 * multicast, unspecified, reserved, or IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4,
 * Teredo); IPv6 only in global unicast (2000::/3); and never a cloud's host-local service on a public
 * address (Azure's 168.63.129.16). The address is checked where the connection is made, on what the
 * name resolved to then, so a name that changes its answer after a check (DNS rebinding) gains
 * nothing. Redirects are followed by hand, each hop checked again, and credentials are not carried to
 * another origin. `allowedHosts` (INTEGRATION_ALLOWED_HOSTS: `host:port`) are exempt, for local
 * development and tests, only when typed: a redirect from anywhere else never reaches them.
 */
export interface OutboundOptions {
  allowedHosts?: readonly string[];
  /** How names are resolved: the system's resolver unless a test gives its own. */
  lookup?: ResolveAll;
  timeoutMs?: number;
  /** Larger bodies are cut off with an error, never held in memory. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Roots trusted beside the public ones (a private CA; the tests' own). */
  ca?: readonly string[];
  /**
   * Whether a connection is kept for the next request to the host (true by default). A monitor's
   * check connects afresh each time: what it measures and the certificate it reads are then today's.
   */
  keepAlive?: boolean;
  /**
   * Heard once per request with how it ended: `ok` (an answer below 500), `error` (a 5xx, a timeout, a
   * lost connection) or `refused` (the address check said no). The process's metrics count it.
   */
  observe?: (outcome: 'ok' | 'error' | 'refused') => void;
  /**
   * How many hosts' certificates are kept (10,000 by default): the least recently used goes first, so
   * a process that meets host after host (a user's targets) holds a bounded number.
   */
  maxCertificates?: number;
}

export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Refused before any packet left for the address: the message says why, for the person who typed it. */
export class RefusedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

export class ResponseTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`The response is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    this.name = 'ResponseTooLargeError';
  }
}

export interface OutboundResponse {
  url: string;
  status: number;
  statusText: string;
  contentType: string | null;
  body: string;
  /** When the certificate of the server that answered ends (https only; null for http). */
  certificateExpiresAt: Date | null;
}

/** Public addresses that reach a service of the host the server runs on, not the internet. */
const HOST_SERVICES = new Set(['168.63.129.16']);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Whether an address is one the public internet routes to (and so may be called). */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  // `process` turns an IPv4-mapped IPv6 address into the IPv4 address it is.
  const parsed = ipaddr.process(bare);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv6') return parsed.match(GLOBAL_UNICAST_V6);
  return !HOST_SERVICES.has(parsed.toString());
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the credential: never sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'api-key'];

export class Outbound {
  readonly #allowed: Set<string>;
  readonly #guarded: Agent;
  readonly #exempt: Agent;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #maxRedirects: number;
  readonly #observe: OutboundOptions['observe'];
  /**
   * The latest certificate seen for each `host:port`, read when its connection is made (kept alive,
   * reused); the hosts used least recently go past `maxCertificates`.
   */
  readonly #certificates: LRUCache<string, Date>;
  readonly #resolve: ResolveAll;

  constructor(options: OutboundOptions = {}) {
    this.#allowed = new Set((options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean));
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.#maxRedirects = options.maxRedirects ?? 3;
    this.#observe = options.observe;
    this.#certificates = new LRUCache({ max: options.maxCertificates ?? 10_000 });
    const resolve: ResolveAll = options.lookup ?? ((hostname, opts, callback) => dnsLookup(hostname, opts, callback));
    this.#resolve = resolve;
    // net.connect calls `lookup` only for names; an address in the URL is checked in `connect` below.
    const guardedLookup = (
      hostname: string,
      opts: { all?: boolean; family?: number },
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      resolve(hostname, { ...opts, all: true } as LookupAllOptions, (error, addresses) => {
        if (error) return callback(error, []);
        // Any private answer refuses the name: the connection could be steered to it.
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        if (refused) return callback(refusal(`${hostname} resolves to ${refused.address}`), []);
        if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), []);
        if (opts.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
    const connectTimeout = Math.min(this.#timeoutMs, 10_000);
    const tls = options.ca ? { ca: [...rootCertificates, ...options.ca] } : {};
    const guardedConnector = buildConnector({ timeout: connectTimeout, lookup: guardedLookup, ...tls } as never);
    const exemptConnector = buildConnector({ timeout: connectTimeout, ...tls });
    // Each new TLS connection's certificate: when it ends is kept for its host.
    const noting =
      (opts: buildConnector.Options, callback: buildConnector.Callback): buildConnector.Callback =>
      (...[error, socket]: Parameters<buildConnector.Callback>) => {
        const certificate = error ? null : (socket as TLSSocket).getPeerCertificate?.();
        if (certificate?.valid_to) this.#certificates.set(hostKey(opts), new Date(certificate.valid_to));
        (callback as (e: Error | null, s: unknown) => void)(error, socket);
      };
    // Undici keeps no connection alive with `pipelining: 0`.
    const reuse = options.keepAlive === false ? { pipelining: 0 } : {};
    this.#guarded = new Agent({
      ...reuse,
      connect: (opts, callback) => {
        const host = opts.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) && !isPublicAddress(host)) return callback(refusal(host), null);
        guardedConnector(opts, noting(opts, callback));
      },
    });
    this.#exempt = new Agent({ ...reuse, connect: (opts, callback) => exemptConnector(opts, noting(opts, callback)) });
  }

  /**
   * Why this URL may not be called, or null: the check made before a request, so that a typed address
   * is refused with a clear message. Names are checked again at connect time (see above).
   */
  refusalOf(target: URL, exempt = this.#isExempt(target)): string | null {
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return 'Only http:// and https:// addresses can be used';
    if (exempt) return null;
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !isPublicAddress(host)) return refusal(host).message;
    if (host === 'localhost' || host.endsWith('.localhost')) return refusal(host).message;
    return null;
  }

  /**
   * Why this URL may not be called, its name resolved as a connection resolves it (any private answer
   * refuses it): what a typed address is screened with when it is saved, so that it is refused at once
   * rather than at each request. A name that does not resolve (yet) is not refused here: its requests
   * fail as they would. Connections are still checked when made (a name may change its answer).
   */
  async screen(target: URL): Promise<string | null> {
    const refused = this.refusalOf(target);
    if (refused || this.#isExempt(target)) return refused;
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return null;
    const addresses = await new Promise<LookupAddress[]>((resolve) =>
      this.#resolve(host, { all: true }, (error, found) => resolve(error ? [] : found)),
    );
    const inside = addresses.find((a) => !isPublicAddress(a.address));
    return inside ? refusal(`${host} resolves to ${inside.address}`).message : null;
  }

  /**
   * `fetch` over the same guarded connections, for a vendor SDK that takes one (Octokit, pointed at a
   * GitHub Enterprise address a user typed): the address refused before anything is sent, as `get`
   * refuses it, and checked again where each connection is made. An allowed host's requests follow no
   * redirect (it is exempt only as typed); elsewhere a redirect is followed as fetch does (no
   * credential to another origin), each connection checked. Within the timeout, heard by `observe`.
   */
  readonly fetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const exempt = this.#isExempt(url);
    const refused = this.refusalOf(url, exempt);
    if (refused) {
      this.#observe?.('refused');
      throw new RefusedAddressError(refused);
    }
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    try {
      const response = await undiciFetch(url, {
        ...(init as object),
        redirect: exempt ? 'manual' : (init?.redirect ?? 'follow'),
        dispatcher: exempt ? this.#exempt : this.#guarded,
        signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      } as never);
      this.#observe?.(response.status < 500 ? 'ok' : 'error');
      return response as unknown as Response;
    } catch (error) {
      const cause = refusedCause(error);
      this.#observe?.(cause ? 'refused' : 'error');
      throw cause ?? error;
    }
  }) as typeof globalThis.fetch;

  /** A GET, following at most `maxRedirects` redirects, each hop checked; the body read up to `maxBytes`. */
  get(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<OutboundResponse> {
    return this.#observed(this.#get(url, headers, signal));
  }

  /**
   * A POST of `body`, with no redirect followed (a webhook that moved is a failure to fix, not to
   * chase); the answer's body read up to `maxBytes`.
   */
  post(
    url: URL,
    headers: Record<string, string>,
    body: string | Uint8Array,
    signal?: AbortSignal,
  ): Promise<OutboundResponse> {
    return this.#observed(this.#post(url, headers, body, signal));
  }

  async #observed(sent: Promise<OutboundResponse>): Promise<OutboundResponse> {
    try {
      const response = await sent;
      this.#observe?.(response.status < 500 ? 'ok' : 'error');
      return response;
    } catch (error) {
      this.#observe?.(error instanceof RefusedAddressError ? 'refused' : 'error');
      throw error;
    }
  }

  async #get(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<OutboundResponse> {
    let target = url;
    let sent = { ...headers };
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
    // An allowed host is exempt only along a chain that started at one.
    const typedExempt = this.#isExempt(url);
    for (let hop = 0; ; hop++) {
      const exempt = typedExempt && this.#isExempt(target);
      const refused = this.refusalOf(target, exempt);
      if (refused) throw new RefusedAddressError(refused);
      const response = await request(target, {
        method: 'GET',
        headers: sent,
        dispatcher: exempt ? this.#exempt : this.#guarded,
        signal: abort,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      }).catch((error: unknown) => {
        throw refusedCause(error) ?? error;
      });
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
        await response.body.dump();
        if (hop >= this.#maxRedirects) throw new Error(`More than ${this.#maxRedirects} redirects`);
        const next = new URL(location, target);
        if (next.origin !== target.origin) {
          sent = Object.fromEntries(
            Object.entries(sent).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())),
          );
        }
        target = next;
        continue;
      }
      return {
        ...(await this.#answer(target, response)),
        certificateExpiresAt: target.protocol === 'https:' ? (this.#certificates.get(hostKey(target)) ?? null) : null,
      };
    }
  }

  async #post(
    url: URL,
    headers: Record<string, string>,
    body: string | Uint8Array,
    signal?: AbortSignal,
  ): Promise<OutboundResponse> {
    const exempt = this.#isExempt(url);
    const refused = this.refusalOf(url, exempt);
    if (refused) throw new RefusedAddressError(refused);
    const response = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: exempt ? this.#exempt : this.#guarded,
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(this.#timeoutMs)])
        : AbortSignal.timeout(this.#timeoutMs),
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    }).catch((error: unknown) => {
      throw refusedCause(error) ?? error;
    });
    return { ...(await this.#answer(url, response)), certificateExpiresAt: null };
  }

  /** An answer as the caller reads it, its body read up to `maxBytes`. */
  async #answer(url: URL, response: Dispatcher.ResponseData): Promise<Omit<OutboundResponse, 'certificateExpiresAt'>> {
    const contentType = response.headers['content-type'];
    // An answer that says it is too large is refused before any of it is read.
    if (Number(response.headers['content-length']) > this.#maxBytes) {
      response.body.destroy();
      throw new ResponseTooLargeError(this.#maxBytes);
    }
    return {
      url: url.toString(),
      status: response.statusCode,
      statusText: STATUS_CODES[response.statusCode] ?? '',
      contentType: typeof contentType === 'string' ? contentType : null,
      body: await this.#read(response.body),
    };
  }

  /** A body read up to `maxBytes`, or an error past it (the rest is never held). */
  async #read(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.#maxBytes) {
        body.destroy();
        throw new ResponseTooLargeError(this.#maxBytes);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** How many hosts' certificates are kept (at most `maxCertificates`). */
  get certificatesKept(): number {
    return this.#certificates.size;
  }

  async close(): Promise<void> {
    await Promise.all([this.#guarded.close(), this.#exempt.close()]);
  }

  #isExempt(target: URL): boolean {
    const port = target.port || (target.protocol === 'https:' ? '443' : '80');
    return this.#allowed.has(`${target.hostname.toLowerCase()}:${port}`);
  }
}

/**
 * The only hosts a kind of request may go to at all, checked before the address guard: a name
 * (`fcm.googleapis.com`) or every name under one (`*.push.apple.com`), over https on port 443; or an
 * exact `host:port`, over http or https, which is also exempt from the private-address block (a local
 * service, a test's stand-in: pass `exempt` as `Outbound`'s `allowedHosts`). Entries are lower case.
 */
export function hostAllowList(entries: readonly string[]) {
  const withPort = entries.filter((entry) => /:\d+$/.test(entry));
  const names = entries.filter((entry) => !withPort.includes(entry));
  return {
    exempt: withPort,
    allows(target: URL): boolean {
      if (target.protocol !== 'https:' && target.protocol !== 'http:') return false;
      if (withPort.includes(hostKey(target))) return true;
      if (target.protocol !== 'https:' || (target.port !== '' && target.port !== '443')) return false;
      const host = target.hostname.toLowerCase();
      return names.some((name) => (name.startsWith('*.') ? host.endsWith(name.slice(1)) : host === name));
    },
  };
}

/** An entry of a host allow-list: `name`, `*.name` or `host:port`. */
export const isHostPattern = (entry: string): boolean =>
  /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(entry) || /^[a-z0-9.-]+:\d{1,5}$/.test(entry);

/** `host:port`, the port spelled out, for a URL or a connection's options alike. */
function hostKey(at: { hostname: string; port: string; protocol: string }): string {
  return `${at.hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${at.port || (at.protocol === 'https:' ? '443' : '80')}`;
}

function refusal(what: string): RefusedAddressError {
  return new RefusedAddressError(
    `Refused: ${what} is a private, loopback or reserved address. Shiplog only connects to public addresses.`,
  );
}

/** The refusal behind a failed request (undici wraps what the connector reported), if that is what it was. */
function refusedCause(error: unknown): RefusedAddressError | null {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof RefusedAddressError) return e;
    if (e instanceof AggregateError) {
      const inner = e.errors.find((x) => x instanceof RefusedAddressError);
      if (inner) return inner;
    }
  }
  return null;
}

/** Why a request got no answer, in a few words for a person (a monitor's incident, a delivery log). */
export function failureCause(error: unknown): string {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (
      e.name === 'TimeoutError' ||
      e.name === 'AbortError' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT'
    )
      return 'timed out';
    if (e.name === 'RefusedAddressError') return 'a private address';
    if (e.name === 'ResponseTooLargeError') return 'answer too large';
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ECONNRESET') return 'connection reset';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'name not found';
    if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return 'certificate not valid';
  }
  return 'no answer';
}

/**
 * `fetch`, each request heard by `observe` as `Outbound` hears its own: for the vendor SDKs that take a
 * fetch of their own (OpenAI's), so their calls are counted with the rest.
 */
export function observedFetch(observe: (outcome: 'ok' | 'error') => void): typeof fetch {
  return async (input, init) => {
    try {
      const response = await fetch(input, init);
      observe(response.status < 500 ? 'ok' : 'error');
      return response;
    } catch (error) {
      observe('error');
      throw error;
    }
  };
}

/**
 * At most `limit` at once for each key (a host, a push service; one key for a total): the rest wait
 * their turn, in order. How every outbound sender shares its places, so one slow host holds only its own.
 */
export class PerKeyGate {
  readonly #limit: number;
  readonly #held = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    if ((this.#held.get(key) ?? 0) >= this.#limit)
      await new Promise<void>((resolve) => this.#waiting.set(key, [...(this.#waiting.get(key) ?? []), resolve]));
    else this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    try {
      return await work();
    } finally {
      // The place passes to the next in line, or is given back.
      const next = this.#waiting.get(key)?.shift();
      if (next) next();
      else {
        const left = (this.#held.get(key) ?? 1) - 1;
        if (left > 0) this.#held.set(key, left);
        else this.#held.delete(key);
      }
      if (this.#waiting.get(key)?.length === 0) this.#waiting.delete(key);
    }
  }
}
