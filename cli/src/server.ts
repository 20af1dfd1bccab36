import { randomUUID } from 'node:crypto';
import { type Credentials, readCredentials } from './config.ts';
import { CliError, EXIT, type Io, text, type Values, VERSION } from './io.ts';

/**
 * The Shiplog server as the CLI talks to it: its address, the credentials to use, one request with
 * its failures turned into exit codes, and a project found by name or id.
 */

export interface Project {
  id: string;
  name: string;
  status: string;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The server's origin; plain http only to this machine, unless `--insecure` says otherwise. */
export function normalizeServer(value: string, values: Values): string {
  let url: URL;
  try {
    url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new CliError(
      EXIT.usage,
      `--server must be an http(s) address, such as https://shiplog.example.com (got "${value}")`,
    );
  }
  if (url.protocol === 'http:' && !isThisMachine(url.hostname) && !values.insecure)
    throw new CliError(
      EXIT.usage,
      `refusing to send your token unencrypted to ${url.origin}: use https://, or add --insecure if you must`,
    );
  return url.origin;
}

const isThisMachine = (hostname: string) =>
  ['localhost', '127.0.0.1', '[::1]'].includes(hostname) || hostname.endsWith('.localhost');

const DEFAULT_TIMEOUT_SECONDS = 30;

/** The newest `/api` version this CLI speaks, and where the server announces its own (gateway app.ts). */
const API_VERSION = 1;
const API_VERSION_HEADER = 'x-shiplog-api-version';

function timeoutOf(env: Io['env']): number {
  const seconds = Number(env.SHIPLOG_TIMEOUT);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS;
}

export async function credentialsFor(values: Values, io: Io): Promise<Credentials> {
  const stored = await readCredentials(io.env);
  const token = io.env.SHIPLOG_TOKEN ?? stored?.token;
  const server = text(values, 'server') ?? io.env.SHIPLOG_URL ?? stored?.url;
  if (!token || !server)
    throw new CliError(
      EXIT.unauthorized,
      'not signed in: run `shiplog login`, or set SHIPLOG_URL and SHIPLOG_TOKEN (a token from Settings › API Tokens)',
    );
  return { url: normalizeServer(server, values), token };
}

/**
 * Requests to the server with the credentials. A server whose API is newer than this CLI still serves
 * what it asks (a one-line notice says an update is out); only a server that no longer serves this
 * CLI's version (`API_VERSION_UNSUPPORTED`) stops it. `retry`: a record (a deployment, a backup, a
 * release) is sent with an idempotency key and sent once more on a network failure or a 5xx, which the
 * server records once.
 */
export function client(credentials: Credentials, io: Io) {
  const seconds = timeoutOf(io.env);
  let noticed = false;
  const once = async <T>(method: string, path: string, body: unknown, key: string | undefined): Promise<T> => {
    let response: Response;
    let raw: string;
    try {
      // One deadline for the whole exchange, the body included.
      const signal = AbortSignal.timeout(seconds * 1000);
      response = await fetch(credentials.url + path, {
        signal,
        method,
        headers: {
          authorization: `Bearer ${credentials.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { 'idempotency-key': key } : {}),
          'user-agent': `shiplog-cli/${VERSION}`,
          [API_VERSION_HEADER]: String(API_VERSION),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      raw = await response.text();
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw new CliError(EXIT.unreachable, `${credentials.url} did not answer within ${seconds} s`);
      throw new CliError(
        EXIT.unreachable,
        `cannot reach ${credentials.url}: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
    // A newer server: it still answers what this CLI asks; say once that an update is out.
    const apiVersion = Number(response.headers.get(API_VERSION_HEADER));
    if (apiVersion > API_VERSION && !noticed) {
      noticed = true;
      io.stderr(
        `shiplog: note: ${credentials.url} speaks version ${apiVersion} of the Shiplog API and this shiplog (${VERSION}) ` +
          `version ${API_VERSION}; it still works, and npm install -g shiplog@latest updates it\n`,
      );
    }
    let parsed: unknown = null;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      parsed = null;
    }
    if (response.ok) return parsed as T;
    const { message: given, code } = (parsed ?? {}) as { message?: unknown; code?: unknown };
    const message = typeof given === 'string' ? given : `${response.status} ${response.statusText}`;
    if (code === 'API_VERSION_UNSUPPORTED')
      throw new CliError(
        EXIT.refused,
        `${message} This shiplog (${VERSION}) speaks version ${API_VERSION}: update it (npm install -g shiplog@latest), then run the command again`,
      );
    if (response.status === 401)
      throw new CliError(
        EXIT.unauthorized,
        `${message} (create a new token in Settings › API Tokens, then run shiplog login)`,
      );
    if (response.status >= 500) throw new CliError(EXIT.unreachable, `Shiplog could not answer: ${message}`);
    throw new CliError(EXIT.refused, message);
  };
  return async <T>(method: string, path: string, body?: unknown, options: { retry?: boolean } = {}): Promise<T> => {
    if (!options.retry) return once<T>(method, path, body, undefined);
    const key = randomUUID();
    try {
      return await once<T>(method, path, body, key);
    } catch (error) {
      // Unreachable or a 5xx: the record may or may not have been made; the same key makes it once.
      if (!(error instanceof CliError) || error.exitCode !== EXIT.unreachable) throw error;
      io.stderr(`shiplog: ${error.message}; trying once more\n`);
      return once<T>(method, path, body, key);
    }
  };
}

export async function findProject(api: ReturnType<typeof client>, wanted: string | undefined): Promise<Project> {
  if (!wanted?.trim()) throw new CliError(EXIT.usage, 'which project? Give --project NAME|ID (or set SHIPLOG_PROJECT)');
  if (ID.test(wanted.trim())) {
    return api<Project>('GET', `/api/projects/${wanted.trim()}`);
  }
  const projects = await api<Project[]>('GET', '/api/projects');
  const named = projects.filter((p) => p.name.trim().toLowerCase() === wanted.trim().toLowerCase());
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    throw new CliError(
      EXIT.refused,
      `${named.length} projects are named "${wanted}": give one by its id (${named.map((p) => p.id).join(', ')})`,
    );
  const names = projects.map((p) => `"${p.name}"`).join(', ');
  throw new CliError(
    EXIT.refused,
    `no project named "${wanted}"${names ? `; yours are ${names}` : ' (you have none yet)'}`,
  );
}
