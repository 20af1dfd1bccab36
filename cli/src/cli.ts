import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { type Credentials, readCredentials, removeCredentials, writeCredentials } from './config.ts';

/**
 * The `shiplog` command: record deployments, backups and releases from a terminal or a CI job, with a
 * personal API token (Settings › API Tokens). `run` is the whole program, so tests call it as it is.
 */

/** Exit codes, as the README documents them. */
/** This release, as package.json has it: `--version` and the User-Agent. */
const VERSION = '0.1.0';

export const EXIT = { ok: 0, refused: 1, usage: 2, unauthorized: 3, unreachable: 4 } as const;

export interface Io {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** All of standard input, for `shiplog login` when the token is piped in. */
  readStdin: () => Promise<string>;
  /** One line typed at the terminal, not shown as it is typed; undefined when input is not a terminal. */
  readHidden?: () => Promise<string>;
}

class CliError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

const HELP = `shiplog — record deployments, backups and releases in Shiplog

Usage:
  shiplog login [--server URL] [--with-token]    check a token and keep it: typed at a prompt
                                                 that does not show it, or piped in (--with-token)
  shiplog logout                                 forget the kept token
  shiplog projects                               list your projects
  shiplog deploy  --project NAME|ID [--version V] [--env production|staging|development]
                  [--url URL] [--notes TEXT]
  shiplog backup  --project NAME|ID [--version V] [--location WHERE] [--size SIZE] [--notes TEXT]
  shiplog release --project NAME|ID --version V --change TEXT [--change TEXT …] [--notes TEXT]

Options for every command:
  --server URL   the Shiplog address (or SHIPLOG_URL; login keeps it)
  --token TOKEN  an API token from Settings › API Tokens (or SHIPLOG_TOKEN; login keeps it)
  --insecure     allow a plain http:// server other than this machine (the token travels unencrypted)
  --json         print the answer as JSON
  --help         this text

Every request gives up after 30 seconds (SHIPLOG_TIMEOUT, in seconds).

--project may also come from SHIPLOG_PROJECT.
Exit codes: 0 done, 1 refused by Shiplog, 2 wrong usage, 3 no or invalid token, 4 Shiplog unreachable.
`;

const common = {
  server: { type: 'string' },
  token: { type: 'string' },
  insecure: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const record = {
  ...common,
  project: { type: 'string', short: 'p' },
  version: { type: 'string' },
  notes: { type: 'string' },
} as const;

const commands = {
  login: { ...common, 'with-token': { type: 'boolean', default: false } },
  logout: common,
  projects: common,
  deploy: { ...record, env: { type: 'string', default: 'production' }, url: { type: 'string' } },
  backup: { ...record, location: { type: 'string' }, size: { type: 'string' } },
  release: { ...record, change: { type: 'string', multiple: true } },
} as const;
type Command = keyof typeof commands;

const isCommand = (name: string | undefined): name is Command => name !== undefined && name in commands;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function run(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    io.stdout(`${VERSION}\n`);
    return EXIT.ok;
  }
  try {
    if (!isCommand(name)) throw new CliError(EXIT.usage, `unknown command "${name}" (see shiplog --help)`);
    let values: Values;
    try {
      const options: ParseArgsOptionsConfig = commands[name];
      values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Values;
    } catch (error) {
      throw new CliError(EXIT.usage, `${(error as Error).message} (see shiplog --help)`);
    }
    if (values.help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    await perform(name, values, io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`shiplog: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

type Values = Record<string, string | boolean | string[] | undefined>;
const text = (values: Values, key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);

async function perform(command: Command, values: Values, io: Io): Promise<void> {
  if (command === 'logout') {
    const had = await removeCredentials(io.env);
    io.stdout(
      had ? 'Signed out: the kept token is forgotten (revoke it in Settings › API Tokens).\n' : 'No token was kept.\n',
    );
    return;
  }
  if (command === 'login') return login(values, io);

  const api = client(await credentialsFor(values, io), io);
  if (command === 'projects') {
    const projects = await api<Project[]>('GET', '/api/projects');
    if (values.json) io.stdout(`${JSON.stringify(projects, null, 2)}\n`);
    else if (projects.length === 0) io.stdout('No projects yet.\n');
    else for (const p of projects) io.stdout(`${p.id}  ${p.status.padEnd(11)}  ${p.name}\n`);
    return;
  }

  const project = await findProject(api, text(values, 'project') ?? io.env.SHIPLOG_PROJECT);
  const path = `/api/projects/${project.id}`;
  let answer: Recorded;
  let done: string;
  if (command === 'deploy') {
    const environment = text(values, 'env') ?? 'production';
    answer = await api('POST', `${path}/deployment`, {
      environment,
      version: text(values, 'version') ?? null,
      url: text(values, 'url') ?? null,
      notes: text(values, 'notes') ?? null,
    });
    done = `Recorded a deployment of ${project.name}${versionText(values)} to ${environment}.`;
  } else if (command === 'backup') {
    answer = await api('POST', `${path}/backup`, {
      version: text(values, 'version') ?? null,
      notes: text(values, 'notes') ?? null,
      backupDetails: { location: text(values, 'location') ?? null, size: text(values, 'size') ?? null },
    });
    done = `Recorded a backup of ${project.name}${versionText(values)}.`;
  } else {
    const version = text(values, 'version');
    const changes = (values.change as string[] | undefined) ?? [];
    if (!version) throw new CliError(EXIT.usage, 'release needs --version');
    if (changes.length === 0) throw new CliError(EXIT.usage, 'release needs at least one --change "what changed"');
    answer = await api('POST', `${path}/version`, { version, changes, notes: text(values, 'notes') ?? null });
    done = `Recorded release ${version} of ${project.name} (${changes.length} ${changes.length === 1 ? 'change' : 'changes'}).`;
  }
  io.stdout(
    values.json
      ? `${JSON.stringify({ project: { id: project.id, name: project.name }, ...answer }, null, 2)}\n`
      : `${done}\n`,
  );
}

const versionText = (values: Values) => (text(values, 'version') ? ` ${text(values, 'version')}` : '');

interface Project {
  id: string;
  name: string;
  status: string;
}
type Recorded = Record<string, unknown>;

async function login(values: Values, io: Io): Promise<void> {
  const server = normalizeServer(text(values, 'server') ?? io.env.SHIPLOG_URL ?? 'http://localhost:3000', values);
  let token = text(values, 'token') ?? io.env.SHIPLOG_TOKEN;
  if (values['with-token']) token = (await io.readStdin()).trim();
  else if (!token && io.readHidden) {
    io.stderr('Paste an API token from Settings › API Tokens (it is not shown), then press Enter: ');
    token = (await io.readHidden()).trim();
    io.stderr('\n');
  } else if (!token) {
    io.stderr('Paste an API token from Settings › API Tokens, then press Enter (Ctrl-D when piped):\n');
    token = (await io.readStdin()).trim();
  }
  if (!token) throw new CliError(EXIT.usage, 'no token given');
  const credentials = { url: server, token };
  // The token is tried before it is kept: a typo fails here, not in the next deploy.
  const projects = await client(credentials, io)<Project[]>('GET', '/api/projects');
  const file = await writeCredentials(io.env, credentials);
  io.stdout(
    values.json
      ? `${JSON.stringify({ server, projects: projects.length, credentials: file })}\n`
      : `Signed in to ${server} (${projects.length} ${projects.length === 1 ? 'project' : 'projects'}). Token kept in ${file}.\n`,
  );
}

/** The server's origin; plain http only to this machine, unless `--insecure` says otherwise. */
function normalizeServer(value: string, values: Values): string {
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

function timeoutOf(env: Io['env']): number {
  const seconds = Number(env.SHIPLOG_TIMEOUT);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS;
}

async function credentialsFor(values: Values, io: Io): Promise<Credentials> {
  const stored = await readCredentials(io.env);
  const token = text(values, 'token') ?? io.env.SHIPLOG_TOKEN ?? stored?.token;
  const server = text(values, 'server') ?? io.env.SHIPLOG_URL ?? stored?.url;
  if (!token || !server)
    throw new CliError(
      EXIT.unauthorized,
      'not signed in: run `shiplog login`, or set SHIPLOG_URL and SHIPLOG_TOKEN (a token from Settings › API Tokens)',
    );
  return { url: normalizeServer(server, values), token };
}

function client(credentials: Credentials, io: Io) {
  const seconds = timeoutOf(io.env);
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
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
          'user-agent': `shiplog-cli/${VERSION}`,
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
    let parsed: unknown = null;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      parsed = null;
    }
    if (response.ok) return parsed as T;
    const message =
      typeof (parsed as { message?: unknown } | null)?.message === 'string'
        ? (parsed as { message: string }).message
        : `${response.status} ${response.statusText}`;
    if (response.status === 401)
      throw new CliError(
        EXIT.unauthorized,
        `${message} (create a new token in Settings › API Tokens, then run shiplog login)`,
      );
    if (response.status >= 500) throw new CliError(EXIT.unreachable, `Shiplog could not answer: ${message}`);
    throw new CliError(EXIT.refused, message);
  };
}

async function findProject(api: ReturnType<typeof client>, wanted: string | undefined): Promise<Project> {
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
