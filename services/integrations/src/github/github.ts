import type { EventOf } from '@shiplog/events';

/**
 * One user's GitHub connection, folded from their `github-<userId>` stream: who GitHub says they are,
 * where its API is (github.com's, or a GitHub Enterprise Server's), how (a token of theirs, or the
 * server's GitHub App installed), the token and webhook secret as GitHubCredentialsSet holds them (sealed with INTEGRATION_KEY_SECRET: see api.ts), and the
 * repositories joined to their projects.
 */
export type GitHubEvent =
  | EventOf<'GitHubConnected'>
  | EventOf<'GitHubCredentialsSet'>
  | EventOf<'GitHubConnectionBroken'>
  | EventOf<'GitHubConnectionRestored'>
  | EventOf<'GitHubDisconnected'>
  | EventOf<'GitHubRepositoriesLinked'>
  | EventOf<'GitHubRepositoryUnlinked'>;

export interface RepositoryLink {
  projectId: string;
  repositoryId: number;
  fullName: string;
  htmlUrl: string;
  defaultBranch: string;
  hook: 'created' | 'manual' | 'app';
  linkedAt: string;
}

export interface GitHubConnection {
  apiUrl: string;
  login: string;
  /** Through the server's GitHub App: its installation, whose tokens are made when needed. */
  installationId: number | null;
  /** With a token of the user's: the token, sealed. */
  sealedToken: string | null;
  /**
   * GitHub refused the token since: the user connects again; the links wait. Through the app, until
   * GitHub says its suspension ended.
   */
  broken: boolean;
  connectedAt: string;
}

export interface GitHubAccount {
  userId: string | null;
  /**
   * The webhook address's key and its signing secret (sealed), made at the first connection and kept
   * after a disconnection, so the repositories' webhooks work again once the user connects again.
   */
  hookKey: string | null;
  sealedSecret: string | null;
  connection: GitHubConnection | null;
  /** By project: a project is joined to one repository. Kept across a reconnection. */
  links: Map<string, RepositoryLink>;
}

export const initialGitHubAccount = (): GitHubAccount => ({
  userId: null,
  hookKey: null,
  sealedSecret: null,
  connection: null,
  links: new Map(),
});

export function evolveGitHubAccount(state: GitHubAccount, event: GitHubEvent): GitHubAccount {
  switch (event.type) {
    case 'GitHubConnected': {
      const { userId, apiUrl, login, hookKey, installationId, at } = event.data;
      return {
        ...state,
        userId,
        hookKey,
        connection: {
          apiUrl,
          login,
          installationId: installationId ?? null,
          sealedToken: null,
          broken: false,
          connectedAt: at,
        },
      };
    }
    case 'GitHubCredentialsSet':
      if (!state.connection) return state;
      return {
        ...state,
        sealedSecret: event.data.sealedSecret,
        connection: { ...state.connection, sealedToken: event.data.sealedToken },
      };
    case 'GitHubConnectionBroken':
      return state.connection ? { ...state, connection: { ...state.connection, broken: true } } : state;
    case 'GitHubConnectionRestored':
      return state.connection ? { ...state, connection: { ...state.connection, broken: false } } : state;
    case 'GitHubDisconnected':
      return { ...state, connection: null };
    case 'GitHubRepositoriesLinked': {
      const links = new Map(state.links);
      for (const link of event.data.links) links.set(link.projectId, { ...link, linkedAt: event.data.at });
      return { ...state, links };
    }
    case 'GitHubRepositoryUnlinked': {
      const links = new Map(state.links);
      links.delete(event.data.projectId);
      return { ...state, links };
    }
  }
}

export const githubStream = (userId: string) => `github-${userId}`;
