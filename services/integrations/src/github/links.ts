import type pg from 'pg';
import type { Commit } from '../adapters/github.ts';
import type { RepositoryLink } from './github.ts';

/**
 * The GitHub tables (migrations/002-github.sql): not read models, since the connection's events are
 * not published; written here, beside the commands that change the connection, with idempotent
 * statements, so a command repeated writes the same rows.
 */
type Queryable = Pick<pg.Pool, 'query'>;

export interface LinkRow {
  projectId: string;
  userId: string;
  repositoryId: number;
  fullName: string;
  htmlUrl: string;
  defaultBranch: string;
  webhook: boolean;
  lastCommit: Commit | null;
  latestRelease: { tag: string; url: string; at: string } | null;
  /** Each environment's last deployed commit. */
  deployed: Record<string, string>;
  /** False once the account took the repository out of the GitHub App's reach: nothing from it arrives. */
  reachable: boolean;
}

const LINK_COLUMNS = `project_id AS "projectId", user_id AS "userId", repository_id::int AS "repositoryId",
  full_name AS "fullName", html_url AS "htmlUrl", default_branch AS "defaultBranch", webhook,
  last_commit AS "lastCommit", latest_release AS "latestRelease", deployed,
  out_of_reach_since IS NULL AS "reachable"`;

export const githubTables = {
  async hookKeyOf(db: Queryable, userId: string): Promise<string | null> {
    const { rows } = await db.query<{ hook_key: string }>(
      'SELECT hook_key FROM integrations.github_hooks WHERE user_id = $1',
      [userId],
    );
    return rows[0]?.hook_key ?? null;
  },

  /**
   * The connection's webhook address, and the app's installation it was made through (null: a token).
   * What an earlier installation could not reach says nothing of this connection's reach.
   */
  async connected(db: Queryable, userId: string, hookKey: string, installationId: number | null): Promise<void> {
    await db.query(
      `INSERT INTO integrations.github_hooks (hook_key, user_id, installation_id) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET hook_key = EXCLUDED.hook_key, installation_id = EXCLUDED.installation_id`,
      [hookKey, userId, installationId],
    );
    await db.query('UPDATE integrations.github_links SET out_of_reach_since = NULL WHERE user_id = $1', [userId]);
  },

  /** The users whose connection was made through the app's installation (their streams say if it still is). */
  async usersOfInstallation(db: Queryable, installationId: number): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      'SELECT user_id FROM integrations.github_hooks WHERE installation_id = $1',
      [installationId],
    );
    return rows.map((row) => row.user_id);
  },

  /** The user whose connection a webhook address names, or null. */
  async userOfHook(db: Queryable, hookKey: string): Promise<string | null> {
    const { rows } = await db.query<{ user_id: string }>(
      'SELECT user_id FROM integrations.github_hooks WHERE hook_key = $1',
      [hookKey],
    );
    return rows[0]?.user_id ?? null;
  },

  async linked(db: Queryable, userId: string, links: RepositoryLink[], lastCommits: Map<string, Commit | null>) {
    for (const link of links) {
      await db.query(
        `INSERT INTO integrations.github_links
           (project_id, user_id, repository_id, full_name, html_url, default_branch, webhook, last_commit, linked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (project_id) DO NOTHING`,
        [
          link.projectId,
          userId,
          link.repositoryId,
          link.fullName,
          link.htmlUrl,
          link.defaultBranch,
          link.hook !== 'manual',
          JSON.stringify(lastCommits.get(link.projectId) ?? null),
          link.linkedAt,
        ],
      );
    }
  },

  /**
   * The repositories the account took out of the GitHub App's reach (`at`, unless it was out of reach
   * already, since then), or gave it again (null), for the links of the users whose connection is made
   * through it.
   */
  async reach(db: Queryable, userIds: string[], repositoryIds: number[], at: string | null): Promise<void> {
    if (userIds.length === 0 || repositoryIds.length === 0) return;
    await db.query(
      `UPDATE integrations.github_links
       SET out_of_reach_since = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE COALESCE(out_of_reach_since, $3) END
       WHERE user_id = ANY($1::uuid[]) AND repository_id = ANY($2::bigint[])`,
      [userIds, repositoryIds, at],
    );
  },

  async unlinked(db: Queryable, projectId: string): Promise<void> {
    await db.query('DELETE FROM integrations.github_links WHERE project_id = $1', [projectId]);
  },

  async link(db: Queryable, projectId: string): Promise<LinkRow | null> {
    const { rows } = await db.query<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM integrations.github_links WHERE project_id = $1`,
      [projectId],
    );
    return rows[0] ?? null;
  },

  /** The project the user joined to the repository, if any. */
  /** Which of `repositoryIds` are joined to a project of one of `userIds`. */
  async linkedAmong(db: Queryable, userIds: string[], repositoryIds: number[]): Promise<number[]> {
    if (userIds.length === 0 || repositoryIds.length === 0) return [];
    const { rows } = await db.query<{ id: number }>(
      `SELECT DISTINCT repository_id::int AS id FROM integrations.github_links
       WHERE user_id = ANY($1::uuid[]) AND repository_id = ANY($2::bigint[])`,
      [userIds, repositoryIds],
    );
    return rows.map((row) => row.id);
  },

  async linkOf(db: Queryable, userId: string, repositoryId: number): Promise<LinkRow | null> {
    const { rows } = await db.query<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM integrations.github_links WHERE user_id = $1 AND repository_id = $2`,
      [userId, repositoryId],
    );
    return rows[0] ?? null;
  },

  /** A push's head on the default branch: the card's last commit, unless a newer one is there already. */
  async pushed(db: Queryable, projectId: string, commit: Commit): Promise<void> {
    await db.query(
      `UPDATE integrations.github_links SET last_commit = $2
       WHERE project_id = $1 AND (last_commit IS NULL OR last_commit->>'at' <= $3)`,
      [projectId, JSON.stringify(commit), commit.at],
    );
  },

  async released(db: Queryable, projectId: string, release: { tag: string; url: string; at: string }) {
    await db.query(
      `UPDATE integrations.github_links SET latest_release = $2
       WHERE project_id = $1 AND (latest_release IS NULL OR latest_release->>'at' <= $3)`,
      [projectId, JSON.stringify(release), release.at],
    );
  },

  /** A deployment's commit, once it succeeded: the environment's next deployment counts from it. */
  async deployedCommit(db: Queryable, projectId: string, environment: string, sha: string): Promise<void> {
    await db.query(
      'UPDATE integrations.github_links SET deployed = deployed || jsonb_build_object($2::text, $3::text) WHERE project_id = $1',
      [projectId, environment, sha],
    );
  },
};
