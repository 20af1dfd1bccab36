import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What `shiplog login` keeps: the app's address and the API token, in the user's config directory. */
export interface Credentials {
  url: string;
  token: string;
}

type Env = Record<string, string | undefined>;

/** The platform's place for a user's settings: XDG on Linux, Application Support on macOS, AppData on Windows. */
export function configDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.SHIPLOG_CONFIG_DIR) return env.SHIPLOG_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'shiplog');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'shiplog');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'shiplog');
}

const fileOf = (env: Env) => join(configDir(env), 'credentials.json');

export async function readCredentials(env: Env): Promise<Credentials | null> {
  try {
    const stored = JSON.parse(await readFile(fileOf(env), 'utf8')) as Partial<Credentials>;
    return typeof stored.url === 'string' && typeof stored.token === 'string'
      ? { url: stored.url, token: stored.token }
      : null;
  } catch {
    return null;
  }
}

/** Written readable by the user alone: the token acts as them. */
export async function writeCredentials(env: Env, credentials: Credentials): Promise<string> {
  const file = fileOf(env);
  await mkdir(configDir(env), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}

export async function removeCredentials(env: Env): Promise<boolean> {
  const had = (await readCredentials(env)) !== null;
  await rm(fileOf(env), { force: true });
  return had;
}
