import { z } from 'zod';

/**
 * GitHub joined to projects: the connection (a fine-grained personal access token, on github.com or a
 * GitHub Enterprise Server, or the server's GitHub App installed), its repositories, and each project's repository as its card shows it.
 */

/** github.com's REST API; a GitHub Enterprise Server's is `https://{host}/api/v3`. */
export const GITHUB_API_URL = 'https://api.github.com';

/** `PUT /api/github`: connect (or connect again) with a token GitHub accepts. */
export const connectGitHubSchema = z.object({
  token: z
    .string({ error: 'Token is required' })
    .trim()
    .min(1, 'Token is required')
    .max(400, 'Token must be at most 400 characters')
    .regex(/^[\x21-\x7e]+$/, 'A token has no spaces or other characters'),
  apiUrl: z
    .union([z.literal(''), z.url({ protocol: /^https?$/, error: 'API URL must be an http(s) address' })])
    .nullish()
    .transform((value) => (value ? value.replace(/\/+$/, '') : null)),
});
export type ConnectGitHubInput = z.infer<typeof connectGitHubSchema>;

const repositoryName = z
  .string({ error: 'Each repository is owner/name' })
  .regex(/^[\w.-]{1,100}\/[\w.-]{1,100}$/, 'Each repository is owner/name');

/** `POST /api/github/import`: repositories to become projects, in the personal space or a workspace. */
export const importRepositoriesSchema = z.object({
  repositories: z
    .array(repositoryName, { error: 'Choose the repositories to import' })
    .min(1, 'Choose the repositories to import')
    .max(50, 'At most 50 repositories at once'),
  workspaceId: z.uuid({ error: 'Choose a workspace you belong to' }).nullable().optional().default(null),
});

/** `PUT /api/projects/{id}/github`: join an existing project to a repository. */
export const linkRepositorySchema = z.object({ repository: repositoryName });

/**
 * `PUT /api/github/app`: what GitHub handed the app's callback after the install (`installation_id`,
 * `code`, and the `state` the install began with).
 */
export const connectGitHubAppSchema = z.object({
  installationId: z.coerce
    .number({ error: 'The installation is missing: install the app again' })
    .int('The installation is missing: install the app again')
    .positive('The installation is missing: install the app again'),
  code: z
    .string({ error: 'GitHub did not authorize the install: install the app again' })
    .regex(/^[\w-]{1,200}$/, 'GitHub did not authorize the install: install the app again'),
  state: z
    .string({ error: 'This install was not begun here: install the app again' })
    .min(1, 'This install was not begun here: install the app again')
    .max(500, 'This install was not begun here: install the app again'),
});
export type ConnectGitHubAppInput = z.infer<typeof connectGitHubAppSchema>;

export const githubConnectionView = z.object({
  connected: z.boolean(),
  login: z.string().nullable(),
  apiUrl: z.string().nullable(),
  /** How: with a token of the user's, or through the server's GitHub App installed. */
  via: z.enum(['token', 'app']).nullable(),
  /** The server has a GitHub App users may install in place of giving a token. */
  appAvailable: z.boolean(),
  /** GitHub refused the token (or the app was uninstalled) since: connect again. */
  reconnect: z.boolean(),
  /**
   * Where the repositories' webhooks send (for one added by hand), and its secret is shown once at
   * connection; null through the app, whose own webhook hears its repositories.
   */
  webhookUrl: z.string().nullable(),
});
export type GitHubConnectionView = z.infer<typeof githubConnectionView>;

/** The connection just made: its webhook secret, for repositories where the token may not make the webhook. */
export const githubConnectedView = githubConnectionView.extend({ webhookSecret: z.string() });
export type GitHubConnectedView = z.infer<typeof githubConnectedView>;

/** `POST /api/github/app/install`: the app's install page on GitHub, for this user for a while. */
export const githubAppInstallView = z.object({ url: z.string() });

export const githubRepositoryView = z.object({
  id: z.number().int(),
  fullName: z.string(),
  description: z.string().nullable(),
  private: z.boolean(),
  htmlUrl: z.string(),
  /** The project it is joined to, if any. */
  projectId: z.uuid().nullable(),
});
export type GitHubRepositoryView = z.infer<typeof githubRepositoryView>;

export const githubImportView = z.object({
  projects: z.array(z.object({ id: z.uuid(), name: z.string(), repository: z.string(), webhook: z.boolean() })),
  alreadyImported: z.number().int(),
  message: z.string(),
});
export type GitHubImportView = z.infer<typeof githubImportView>;

const commitView = z.object({
  sha: z.string(),
  message: z.string(),
  author: z.string(),
  url: z.string(),
  at: z.string(),
});

/** `GET /api/projects/{id}/github`: the project's repository, its last commit and latest release. */
export const projectRepositoryView = z.object({
  fullName: z.string(),
  htmlUrl: z.string(),
  defaultBranch: z.string(),
  lastCommit: commitView.nullable(),
  latestRelease: z.object({ tag: z.string(), url: z.string(), at: z.string() }).nullable(),
  /** The webhook was made through the API, or is the GitHub App's; false: someone adds it by hand (`webhookUrl`). */
  webhook: z.boolean(),
  /** False once the account took the repository out of the GitHub App's reach on GitHub: nothing from it arrives. */
  reachable: z.boolean(),
});
export type ProjectRepositoryView = z.infer<typeof projectRepositoryView>;
