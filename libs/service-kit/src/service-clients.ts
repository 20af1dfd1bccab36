import type { RequestListener } from 'node:http';
import { AppError, ServiceUnavailableError, UnauthorizedError } from '@shiplog/errors';
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  ConsecutiveBreaker,
  circuitBreaker,
  handleAll,
} from 'cockatiel';
import type { Pool } from 'undici';
import type { ServiceName } from './config.ts';
import { type Caller, CORRELATION_HEADER, INTERNAL_TOKEN_HEADER, TokenSigner } from './internal-token.ts';
import { CONSISTENCY_HEADER } from './read-your-writes.ts';

let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => {
  undici ??= import('undici');
  return undici;
};

/**
 * How long a call to another service may take, unless the call says otherwise: until its answer's
 * headers, and between two parts of its body. A service answers a read in milliseconds; one that has
 * not answered in 10 s is treated as down, so a slow service costs its callers seconds, not their pools.
 */
export const CALL_TIMEOUT_MS = 10_000;

/** When a service's breaker opens (failures in a row), and how long it stays open before one call tries. */
export interface BreakerOptions {
  failures: number;
  halfOpenAfterMs: number;
}
const DEFAULT_BREAKER: BreakerOptions = { failures: 5, halfOpenAfterMs: 1_000 };

/**
 * Keep-alive connection pools to each service, and a JSON call helper: the gateway's own routes, and
 * the few questions a service must ask another's owner at the moment it decides (`@shiplog/contracts`' plan-gates.ts).
 * Every call goes through its service's circuit breaker (`guarded`): after `failures` calls in a row
 * that got no answer (refused, reset, timed out), calls to that service fail at once with the usual
 * 503 for `halfOpenAfterMs`, then one is let through to try. An answer of any status is not a failure.
 */
export class ServiceClients {
  readonly #pools = new Map<ServiceName, Pool>();
  readonly #breakers = new Map<ServiceName, CircuitBreakerPolicy>();
  readonly #urls: Record<ServiceName, string>;
  readonly #signer: TokenSigner;
  readonly #breaker: BreakerOptions;
  readonly #inProcess: Partial<Record<ServiceName, RequestListener>>;

  constructor(
    urls: Record<ServiceName, string>,
    secret: string,
    options: {
      breaker?: BreakerOptions;
      /** The request handlers of the services that run in this process (the one-process mode). */
      inProcess?: Partial<Record<ServiceName, RequestListener>>;
    } = {},
  ) {
    this.#urls = urls;
    this.#signer = new TokenSigner(secret);
    this.#breaker = options.breaker ?? DEFAULT_BREAKER;
    this.#inProcess = options.inProcess ?? {};
  }

  /**
   * The request handler of `service` when it runs in this process: the gateway hands a call to it
   * without a socket (the gateway's forward.ts). Calls made with `call` still go over HTTP.
   */
  inProcess(service: ServiceName): RequestListener | undefined {
    return this.#inProcess[service];
  }

  /** Runs a call to `service` through its breaker; an open breaker is the service's usual 503. */
  async guarded<T>(service: ServiceName, work: () => Promise<T>): Promise<T> {
    let breaker = this.#breakers.get(service);
    if (!breaker) {
      breaker = circuitBreaker(handleAll, {
        halfOpenAfter: this.#breaker.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(this.#breaker.failures),
      });
      this.#breakers.set(service, breaker);
    }
    try {
      return await breaker.execute(work);
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw unavailable(service, error);
      throw error;
    }
  }

  /**
   * The pool to `service`. undici is loaded with the first: a service that never calls another does
   * not carry it (about 10 MB of a process's memory).
   */
  async pool(service: ServiceName): Promise<Pool> {
    const pool = this.#pools.get(service);
    if (pool) return pool;
    const { Pool } = await loadUndici();
    let made = this.#pools.get(service);
    if (!made) {
      made = new Pool(this.#urls[service], { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
      this.#pools.set(service, made);
    }
    return made;
  }

  url(service: ServiceName): string {
    return this.#urls[service];
  }

  /**
   * The headers every service call carries: the signed caller, and the read-your-writes positions. The
   * trace's `traceparent` is added by the undici instrumentation (telemetry's sdk.ts), as the call's
   * own span.
   */
  internalHeaders(caller: Caller, after: string | undefined): Record<string, string> {
    return {
      [INTERNAL_TOKEN_HEADER]: this.#signer.token(caller),
      [CORRELATION_HEADER]: caller.correlationId,
      ...(after ? { [CONSISTENCY_HEADER]: after } : {}),
    };
  }

  async call<T>(
    service: ServiceName,
    request: {
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      path: string;
      /** Sent as JSON; a Buffer is taken to be JSON text already and sent as it is. */
      body?: unknown;
      caller: Caller;
      after?: string | undefined;
      headers?: Record<string, string>;
      /** Longer than CALL_TIMEOUT_MS for a call known to take longer (a part of a large import). */
      timeoutMs?: number;
    },
  ): Promise<{ status: number; body: T; headers: Record<string, string | string[] | undefined> }> {
    const timeout = request.timeoutMs ?? CALL_TIMEOUT_MS;
    const pool = await this.pool(service);
    // Only the absence of an answer is the breaker's business: reading it is; parsing it is not.
    const answer = await this.guarded(service, async () => {
      const response = await pool
        .request({
          headersTimeout: timeout,
          bodyTimeout: timeout,
          method: request.method,
          path: request.path,
          headers: {
            accept: 'application/json',
            ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...request.headers,
            ...this.internalHeaders(request.caller, request.after),
          },
          body:
            request.body === undefined
              ? null
              : Buffer.isBuffer(request.body)
                ? request.body
                : JSON.stringify(request.body),
        })
        .catch((error: unknown) => {
          throw unavailable(service, error);
        });
      const text = await response.body.text().catch((error: unknown) => {
        throw unavailable(service, error);
      });
      return { status: response.statusCode, text, headers: response.headers };
    });
    return {
      status: answer.status,
      body: (answer.text ? JSON.parse(answer.text) : null) as T,
      headers: answer.headers,
    };
  }

  /**
   * Reads another service's data for the caller: the body of its 200. Its refusals become the caller's
   * own: a 401 stays a 401, a 503 (the service cannot answer for a moment) a 503 with its message, and
   * anything else a 502 `UPSTREAM_FAILED`. The one way a process reads what another owns.
   */
  async read<T>(
    service: ServiceName,
    path: string,
    request: { caller: Caller; after?: string | undefined },
  ): Promise<T> {
    const answer = await this.readOrNull<T>(service, path, request);
    if (answer === null) throw new AppError(502, 'UPSTREAM_FAILED', `The ${service} service did not answer`);
    return answer;
  }

  /** As `read`, with null for a 404: what the caller asked for is not there (or not theirs). */
  async readOrNull<T>(
    service: ServiceName,
    path: string,
    request: { caller: Caller; after?: string | undefined },
  ): Promise<T | null> {
    const answer = await this.call<T>(service, { method: 'GET', path, ...request });
    if (answer.status === 200) return answer.body;
    if (answer.status === 404) return null;
    if (answer.status === 401) throw new UnauthorizedError();
    if (answer.status === 503) {
      const message = (answer.body as { message?: unknown } | null)?.message;
      throw new ServiceUnavailableError(
        typeof message === 'string' ? message : `The ${service} service is not available right now.`,
      );
    }
    throw new AppError(502, 'UPSTREAM_FAILED', `The ${service} service did not answer`);
  }

  /**
   * Waits for the calls in flight, at most `graceMs`; then any still open are cut. A stop must end:
   * one call left open would hold it for ever (a forwarded body that never ended did, until the
   * gateway stopped forwarding requests whose connection had closed: system/test/gateway/client-gone).
   * Answers how many calls were cut (0 when every one ended in time, at least 1 when the grace ran
   * out), for the caller to report.
   */
  async close(graceMs = 5000): Promise<number> {
    const pools = [...this.#pools.values()];
    let timer: NodeJS.Timeout | undefined;
    const graceful = Promise.all(pools.map((p) => p.close())).then(() => true);
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    const closed = await Promise.race([graceful, late]);
    clearTimeout(timer);
    if (closed) return 0;
    const open = pools.reduce((sum, p) => sum + p.stats.running + p.stats.pending, 0);
    await Promise.all(pools.map((p) => p.destroy()));
    return Math.max(open, 1);
  }
}

export function unavailable(service: ServiceName, error: unknown): ServiceUnavailableError {
  const unavailableError = new ServiceUnavailableError(
    `The ${service} service is not available right now. Please try again.`,
  );
  unavailableError.cause = error;
  return unavailableError;
}
