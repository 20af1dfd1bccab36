import { writeFile } from 'node:fs/promises';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { removeCredentials, writeCredentials } from './config.ts';
import { CliError, EXIT, type Io, text, type Values, VERSION } from './io.ts';
import { client, credentialsFor, findProject, normalizeServer, type Project } from './server.ts';

export { EXIT, type Io } from './io.ts';

/**
 * The `shiplog` command: record deployments, backups and releases from a terminal or a CI job, with a
 * personal API token (Settings › API Tokens). `run` is the whole program, so tests call it as it is.
 */

/** Each command's usage, as `shiplog --help` lists them and `shiplog <command> --help` prints one. */
const usage = {
  login: `shiplog login [--server URL] [--with-token]    check a token and keep it: typed at a prompt
                                                 that does not show it, or piped in (--with-token)`,
  logout: 'shiplog logout                                 forget the kept token',
  whoami: 'shiplog whoami                                 whose the token is, and on which server',
  projects: 'shiplog projects                               list your projects',
  export: `shiplog export  [--output FILE]                 everything you keep (projects, reminders,
                                                 activities) as Shiplog's JSON export file, to FILE
                                                 or standard output; a paid plan's, as in Settings`,
  deploy: `shiplog deploy  --project NAME|ID [--version V] [--env production|staging|development]
                  [--url URL] [--notes TEXT] [--status started|success|failed]
                  (started: a deployment under way; alerts of the project's monitors wait
                  until its success or failure is recorded)`,
  backup: 'shiplog backup  --project NAME|ID [--version V] [--location WHERE] [--size SIZE] [--notes TEXT]',
  release: 'shiplog release --project NAME|ID --version V --change TEXT [--change TEXT …] [--notes TEXT]',
};

const OPTIONS = `Options for every command:
  --server URL   the Shiplog address (or SHIPLOG_URL; login keeps it)
  --insecure     allow a plain http:// server other than this machine (the token travels unencrypted)
  --json         print the answer as JSON
  --help         this text

The token: SHIPLOG_TOKEN, or the one login kept. It is never an option: a command line is kept in the
shell's history and shown to every user by ps. login reads it at a prompt that does not show it, or
from standard input with --with-token (echo "$SHIPLOG_TOKEN" | shiplog login --with-token).
Every request gives up after 30 seconds (SHIPLOG_TIMEOUT, in seconds); deploy, backup and release are
sent once more after a network failure or a server error, and Shiplog records them once.
login keeps the address and token in credentials.json in the user's config directory (~/.config/shiplog,
~/Library/Application Support/shiplog or %APPDATA%\\shiplog), or in SHIPLOG_CONFIG_DIR when set.
`;

const HELP = `shiplog — record deployments, backups and releases in Shiplog

Usage:
${Object.values(usage)
  .map((line) => `  ${line}`)
  .join('\n')}

${OPTIONS}
--project may also come from SHIPLOG_PROJECT.
Exit codes: 0 done, 1 refused by Shiplog, 2 wrong usage, 3 no or invalid token, 4 Shiplog unreachable.
`;

/** One command's help: its usage and the options every command takes. */
const helpOf = (command: Command) => `Usage:
  ${usage[command]}

${OPTIONS}`;

const common = {
  server: { type: 'string' },
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
  whoami: common,
  projects: common,
  export: { ...common, output: { type: 'string', short: 'o' } },
  deploy: {
    ...record,
    env: { type: 'string', default: 'production' },
    url: { type: 'string' },
    status: { type: 'string', default: 'success' },
  },
  backup: { ...record, location: { type: 'string' }, size: { type: 'string' } },
  release: { ...record, change: { type: 'string', multiple: true } },
} as const;
type Command = keyof typeof commands;

const isCommand = (name: string | undefined): name is Command => name !== undefined && name in commands;
export async function run(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // `shiplog help deploy`: that command's help.
    const about = name === 'help' ? rest[0] : undefined;
    io.stdout(isCommand(about) ? helpOf(about) : HELP);
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
      if (rest.some((arg) => arg === '--token' || arg.startsWith('--token=')))
        throw new CliError(
          EXIT.usage,
          '--token would be kept in your shell history and shown by ps: set SHIPLOG_TOKEN, or pipe it to shiplog login --with-token',
        );
      values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Values;
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(EXIT.usage, `${(error as Error).message} (see shiplog --help)`);
    }
    if (values.help) {
      io.stdout(helpOf(name));
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

async function perform(command: Command, values: Values, io: Io): Promise<void> {
  if (command === 'logout') {
    const had = await removeCredentials(io.env);
    io.stdout(
      had ? 'Signed out: the kept token is forgotten (revoke it in Settings › API Tokens).\n' : 'No token was kept.\n',
    );
    return;
  }
  if (command === 'login') return login(values, io);

  const credentials = await credentialsFor(values, io);
  const api = client(credentials, io);
  if (command === 'whoami') {
    const user = await api<{ username: string; email: string | null; subscriptionStatus: string | null }>(
      'GET',
      '/api/user',
    );
    if (values.json) io.stdout(`${JSON.stringify({ server: credentials.url, ...user }, null, 2)}\n`);
    else io.stdout(`${user.username} on ${credentials.url}${user.email ? ` (${user.email})` : ''}\n`);
    return;
  }
  if (command === 'export') {
    const file = await api<{ projects: unknown[]; reminders: unknown[]; activities: unknown[] }>('GET', '/api/export');
    const text = `${JSON.stringify(file, null, 2)}\n`;
    const output = values.output as string | undefined;
    if (!output) {
      io.stdout(text);
      return;
    }
    await writeFile(output, text, { mode: 0o600 });
    io.stderr(
      `Exported ${file.projects.length} projects, ${file.reminders.length} reminders and ${file.activities.length} activities to ${output}.\n`,
    );
    return;
  }
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
    answer = await api(
      'POST',
      `${path}/deployment`,
      {
        environment,
        version: text(values, 'version') ?? null,
        url: text(values, 'url') ?? null,
        notes: text(values, 'notes') ?? null,
        status: text(values, 'status') ?? 'success',
      },
      { retry: true },
    );
    const how = { started: 'the start of a deployment', failed: 'a failed deployment' }[text(values, 'status') ?? ''];
    done = `Recorded ${how ?? 'a deployment'} of ${project.name}${versionText(values)} to ${environment}.`;
  } else if (command === 'backup') {
    answer = await api(
      'POST',
      `${path}/backup`,
      {
        version: text(values, 'version') ?? null,
        notes: text(values, 'notes') ?? null,
        backupDetails: { location: text(values, 'location') ?? null, size: text(values, 'size') ?? null },
      },
      { retry: true },
    );
    done = `Recorded a backup of ${project.name}${versionText(values)}.`;
  } else {
    const version = text(values, 'version');
    const changes = (values.change as string[] | undefined) ?? [];
    if (!version) throw new CliError(EXIT.usage, 'release needs --version');
    if (changes.length === 0) throw new CliError(EXIT.usage, 'release needs at least one --change "what changed"');
    answer = await api(
      'POST',
      `${path}/version`,
      { version, changes, notes: text(values, 'notes') ?? null },
      { retry: true },
    );
    done = `Recorded release ${version} of ${project.name} (${changes.length} ${changes.length === 1 ? 'change' : 'changes'}).`;
  }
  io.stdout(
    values.json
      ? `${JSON.stringify({ project: { id: project.id, name: project.name }, ...answer }, null, 2)}\n`
      : `${done}\n`,
  );
}

const versionText = (values: Values) => (text(values, 'version') ? ` ${text(values, 'version')}` : '');

type Recorded = Record<string, unknown>;

async function login(values: Values, io: Io): Promise<void> {
  const server = normalizeServer(text(values, 'server') ?? io.env.SHIPLOG_URL ?? 'http://localhost:3000', values);
  let token = io.env.SHIPLOG_TOKEN;
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
