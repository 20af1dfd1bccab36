import { ConflictError, NotFoundError } from '@shiplog/errors';
import type { Decider } from '@shiplog/service-kit';
import {
  evolveGitHubAccount,
  type GitHubAccount,
  type GitHubEvent,
  initialGitHubAccount,
  type RepositoryLink,
} from './github.ts';

export type GitHubCommand =
  | {
      type: 'Connect';
      userId: string;
      apiUrl: string;
      login: string;
      /** New ones, used when the account has none from a connection before. */
      hookKey: string;
      /**
       * A token of the user's, sealed by the API before it gets here (a decider never holds a token in
       * clear), or the server's GitHub App's installation that the user showed GitHub gives them.
       */
      credential: { sealedToken: string } | { installationId: number };
      sealedSecret: string;
    }
  | { type: 'MarkBroken'; userId: string; status: number }
  /** GitHub says the server's app, suspended, is unsuspended on the installation this connection is made through. */
  | { type: 'Restore'; userId: string }
  | { type: 'Disconnect'; userId: string }
  | { type: 'Link'; userId: string; links: Omit<RepositoryLink, 'linkedAt'>[] }
  | { type: 'Unlink'; userId: string; projectId: string };

export const notConnected = () =>
  new NotFoundError('Connect GitHub first, on the External API page', 'GITHUB_NOT_CONNECTED');

export function decideGitHub(command: GitHubCommand, state: GitHubAccount, now: Date): GitHubEvent[] {
  const at = now.toISOString();
  const { userId } = command;
  switch (command.type) {
    case 'Connect': {
      const { apiUrl, login, credential } = command;
      // The webhook address and secret of a connection before stay: the repositories' webhooks keep working.
      const hookKey = state.hookKey ?? command.hookKey;
      const sealedSecret = state.sealedSecret ?? command.sealedSecret;
      const sealedToken = 'sealedToken' in credential ? credential.sealedToken : null;
      const installation = 'installationId' in credential ? { installationId: credential.installationId } : {};
      return [
        { type: 'GitHubConnected', data: { userId, apiUrl, login, hookKey, ...installation, at } },
        { type: 'GitHubCredentialsSet', data: { userId, sealedToken, sealedSecret } },
      ];
    }
    case 'MarkBroken':
      // Told once: a second refusal of the same token changes nothing.
      if (!state.connection || state.connection.broken) return [];
      return [{ type: 'GitHubConnectionBroken', data: { userId, status: command.status, at } }];
    case 'Restore':
      // Only a connection through the app: a refused token of the user's stays refused.
      if (!state.connection?.broken || state.connection.installationId === null) return [];
      return [{ type: 'GitHubConnectionRestored', data: { userId, at } }];
    case 'Disconnect':
      if (!state.connection) return [];
      return [{ type: 'GitHubDisconnected', data: { userId, at } }];
    case 'Link': {
      if (!state.connection) throw notConnected();
      // A repository joins one project of the user's, and a project one repository: the same again is nothing.
      const fresh = command.links.filter((link) => {
        const current = state.links.get(link.projectId);
        if (current?.repositoryId === link.repositoryId) return false;
        if (current)
          throw new ConflictError(`This project is joined to ${current.fullName} already`, 'GITHUB_ALREADY_LINKED');
        const elsewhere = [...state.links.values()].find((l) => l.repositoryId === link.repositoryId);
        if (elsewhere)
          throw new ConflictError(`${link.fullName} is joined to another of your projects`, 'GITHUB_ALREADY_LINKED');
        return true;
      });
      if (fresh.length === 0) return [];
      return [{ type: 'GitHubRepositoriesLinked', data: { userId, links: fresh, at } }];
    }
    case 'Unlink':
      if (!state.links.has(command.projectId)) return [];
      return [{ type: 'GitHubRepositoryUnlinked', data: { userId, projectId: command.projectId, at } }];
  }
}

export const githubDecider: Decider<GitHubAccount, GitHubCommand, GitHubEvent> = {
  initialState: initialGitHubAccount,
  evolve: evolveGitHubAccount,
  decide: decideGitHub,
};
