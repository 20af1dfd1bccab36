import {
  connectGitHubAppSchema,
  connectGitHubSchema,
  githubAppInstallView,
  githubConnectedView,
  githubConnectionView,
  githubImportView,
  githubRepositoryView,
  importRepositoriesSchema,
  linkRepositorySchema,
  projectRepositoryView,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** GitHub joined to projects: the connection, its repositories, each project's, and GitHub's deliveries (`api.ts`). */
export const githubRoutes = declareRoutes({
  'GET /github': {
    tag: 'Integrations',
    summary: 'The GitHub connection, if any',
    access: 'user',
    answer: githubConnectionView,
  },
  'PUT /github': {
    tag: 'Integrations',
    summary: 'Connect GitHub with a personal access token (github.com, or a GitHub Enterprise Server’s `apiUrl`)',
    description:
      'The token is checked with GitHub and kept sealed, never answered. The answer holds the webhook secret, for a repository whose webhook is added by hand; it is the same at every connection.',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 30_000,
    body: connectGitHubSchema,
    answer: githubConnectedView,
  },
  'POST /github/app/install': {
    tag: 'Integrations',
    summary: 'Begin installing the server’s GitHub App: its install page on GitHub',
    description:
      'The address carries a `state` for this user, good for 30 minutes, that GitHub hands back to the app’s callback. 404 `GITHUB_APP_NOT_SET_UP` when the server has no GitHub App.',
    access: 'user',
    answer: githubAppInstallView,
  },
  'PUT /github/app': {
    tag: 'Integrations',
    summary: 'Connect GitHub through the GitHub App just installed',
    description:
      'With what GitHub handed the app’s callback: the installation is taken only when the `state` is this user’s and GitHub says, for the `code` the install authorized, that the installing user may reach it. No token is kept: the installation’s are made when needed.',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 30_000,
    body: connectGitHubAppSchema,
    answer: githubConnectionView,
  },
  'DELETE /github': {
    tag: 'Integrations',
    summary: 'Disconnect GitHub (the projects and their links stay)',
    access: 'user',
    status: 204,
  },
  'GET /github/repositories': {
    tag: 'Integrations',
    summary: 'The repositories the token reaches, and the project each is joined to',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 60_000,
    answer: z.array(githubRepositoryView),
  },
  'POST /github/import': {
    tag: 'Integrations',
    summary: 'Import repositories as projects, each joined to its repository',
    description:
      'Name, description, homepage (the website link), the repository (the GitHub link) and public or private come from GitHub. A repository imported before adds nothing.',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 120_000,
    body: importRepositoriesSchema,
    answer: githubImportView,
  },
  'GET /projects/:id/github': {
    tag: 'Integrations',
    summary: 'The project’s repository, its last commit and latest release (null: joined to none)',
    access: 'user',
    project: 'viewer',
    token: true,
    answer: projectRepositoryView.nullable(),
  },
  'PUT /projects/:id/github': {
    tag: 'Integrations',
    summary: 'Join the project to a repository of the caller’s GitHub connection',
    access: 'user',
    project: 'member',
    limit: 'outbound',
    timeoutMs: 30_000,
    body: linkRepositorySchema,
    answer: projectRepositoryView,
  },
  'DELETE /projects/:id/github': {
    tag: 'Integrations',
    summary: 'Part the project from its repository (its webhook on GitHub stays until removed there)',
    access: 'user',
    project: 'member',
    status: 204,
  },
  // GitHub posts without a session: the signature over the raw body (passed on untouched) is the credential.
  'POST /hooks/github-app': {
    tag: 'Integrations',
    summary: 'The GitHub App’s webhook deliveries, for every repository it is installed on',
    description:
      'Signed with the app’s webhook secret (`X-Hub-Signature-256`): 401 without it. Recorded for each connection through the installation the delivery names, as a repository’s own webhook’s are; an uninstalled or suspended app asks its connections to be made again, and an unsuspended one makes them work again; a repository the account takes out of the app’s reach is marked so on its project (`reachable`), until given back.',
    access: 'public',
    rawBody: true,
    limit: 'githubHook',
    status: 202,
    answer: z.object({ recorded: z.boolean(), reason: z.string().optional() }),
  },
  'POST /hooks/github/:hookKey': {
    tag: 'Integrations',
    summary: 'GitHub’s webhook deliveries: releases, deployment statuses and pushes',
    description:
      'The `X-Hub-Signature-256` header over the raw body, with the connection’s webhook secret, is the credential: 401 without it. A release is recorded once, a deployment’s status once, however often GitHub delivers it; a repository joined to no project is 202 and nothing.',
    access: 'public',
    rawBody: true,
    limit: 'githubHook',
    status: 202,
    answer: z.object({ recorded: z.boolean(), reason: z.string().optional() }),
  },
});
