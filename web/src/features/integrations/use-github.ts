import type {
  ConnectGitHubAppInput,
  ConnectGitHubInput,
  GitHubConnectedView,
  GitHubConnectionView,
  GitHubImportView,
  GitHubRepositoryView,
  ProjectRepositoryView,
} from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/** The GitHub connection (External API page), its repositories, and each project's repository (its page). */
export const githubQuery = queryOptions({
  queryKey: keys.github,
  queryFn: () => apiRequest<GitHubConnectionView>('GET', '/api/github'),
});

export const githubRepositoriesQuery = queryOptions({
  queryKey: [...keys.github, 'repositories'],
  queryFn: () => apiRequest<GitHubRepositoryView[]>('GET', '/api/github/repositories'),
  staleTime: 60_000,
});

export const projectRepositoryQuery = (projectId: string) =>
  queryOptions({
    queryKey: [...keys.github, 'project', projectId],
    queryFn: () => apiRequest<ProjectRepositoryView | null>('GET', `/api/projects/${projectId}/github`),
  });

export function useConnectGitHub() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ConnectGitHubInput) => apiRequest<GitHubConnectedView>('PUT', '/api/github', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.github }),
    meta: told({
      success: (connection: GitHubConnectedView) => ({
        title: 'GitHub connected',
        description: `Connected as ${connection.login}.`,
      }),
      failure: 'Failed to connect GitHub',
    }),
  });
}

/** Begins installing the server's GitHub App: the browser goes to its install page on GitHub. */
export function useInstallGitHubApp() {
  return useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', '/api/github/app/install', {}),
    onSuccess: ({ url }) => window.location.assign(url),
    meta: told({ failure: 'Could not begin installing the GitHub App' }),
  });
}

/** Finishes an install with what GitHub handed back to this page. */
export function useFinishGitHubAppInstall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ConnectGitHubAppInput) => apiRequest<GitHubConnectionView>('PUT', '/api/github/app', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.github }),
    meta: told({
      success: (connection: GitHubConnectionView) => ({
        title: 'GitHub connected',
        description: `The GitHub App is installed for ${connection.login}.`,
      }),
      failure: (error: Error) => ({
        title: 'Failed to connect GitHub',
        // The one reason the server gave (the install's state, code or installation), else its message.
        description:
          (error instanceof ApiError && error.fieldErrors && Object.values(error.fieldErrors)[0]?.[0]) || error.message,
      }),
    }),
  });
}

export function useDisconnectGitHub() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', '/api/github'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.github }),
    meta: told({
      success: { title: 'GitHub disconnected', description: 'Your projects and their repositories stay.' },
      failure: 'Failed to disconnect GitHub',
    }),
  });
}

export function useImportRepositories() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (repositories: string[]) =>
      apiRequest<GitHubImportView>('POST', '/api/github/import', { repositories }),
    onSuccess: () =>
      Promise.all(
        [keys.github, keys.projects, keys.activities, keys.dashboard].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
    meta: told({
      success: (result: GitHubImportView) => ({ title: 'Repositories imported', description: result.message }),
      failure: 'Failed to import repositories',
    }),
  });
}

export function useLinkRepository(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (repository: string) =>
      apiRequest<ProjectRepositoryView>('PUT', `/api/projects/${projectId}/github`, { repository }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.github }),
    meta: told({
      success: (link: ProjectRepositoryView) => ({
        title: 'Repository joined',
        description: `Releases, deployments and pushes of ${link.fullName} are recorded here now.`,
      }),
      failure: 'Failed to join the repository',
    }),
  });
}

export function useUnlinkRepository(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', `/api/projects/${projectId}/github`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.github }),
    meta: told({ failure: 'Failed to part the repository' }),
  });
}
