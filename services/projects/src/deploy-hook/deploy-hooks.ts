import { createHash } from 'node:crypto';
import type { Batch } from '@shiplog/service-kit';
import type pg from 'pg';

/**
 * The deploy webhooks' table (`projects.deploy_hooks`): one per project, by the SHA-256 of its secret
 * alone (decision 031). A credential, not a domain fact, so a table and not an event; it goes with its
 * project (the project list's projector calls `forget` on ProjectDeleted) and with the account.
 */
const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const deployHooks = {
  /** Whether the project has one, and since when. */
  async state(db: pg.Pool, projectId: string): Promise<{ active: boolean; createdAt: string | null }> {
    const { rows } = await db.query<{ created_at: Date }>(
      'SELECT created_at FROM projects.deploy_hooks WHERE project_id = $1',
      [projectId],
    );
    return { active: rows.length > 0, createdAt: rows[0]?.created_at.toISOString() ?? null };
  },

  /** Keeps the secret's hash for the project, replacing any other (the old URL stops at once). */
  async replace(db: pg.Pool, projectId: string, userId: string, secret: string): Promise<string> {
    const { rows } = await db.query<{ created_at: Date }>(
      `INSERT INTO projects.deploy_hooks (project_id, user_id, token_hash) VALUES ($1, $2, $3)
       ON CONFLICT (project_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()
       RETURNING created_at`,
      [projectId, userId, hash(secret)],
    );
    return rows[0]!.created_at.toISOString();
  },

  async remove(db: pg.Pool, projectId: string): Promise<void> {
    await db.query('DELETE FROM projects.deploy_hooks WHERE project_id = $1', [projectId]);
  },

  /** The project and owner a secret stands for, or null. */
  async find(db: pg.Pool, secret: string): Promise<{ projectId: string; userId: string } | null> {
    const { rows } = await db.query<{ project_id: string; user_id: string }>(
      'SELECT project_id, user_id FROM projects.deploy_hooks WHERE token_hash = $1',
      [hash(secret)],
    );
    return rows[0] ? { projectId: rows[0].project_id, userId: rows[0].user_id } : null;
  },

  /** A deleted project's webhook goes with it, in the projector's batch. */
  forget(batch: Pick<Batch, 'defer'>, projectId: string): void {
    batch.defer('DELETE FROM projects.deploy_hooks WHERE project_id = $1', [projectId]);
  },
};
