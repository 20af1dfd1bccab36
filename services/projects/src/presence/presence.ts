import type pg from 'pg';

/** How long a sign of presence counts: the page sends one every 20 s, so two may go missing. */
export const PRESENCE_SECONDS = 45;

export interface Present {
  userId: string;
  username: string;
}

/**
 * Who has a project's page open (`projects.project_presence`, kept here alone): the caller's sign of
 * presence, recorded, and the others seen in the last 45 s, by name; older signs are taken away.
 */
export const presence = {
  async seen(pool: pg.Pool, projectId: string, user: Present, now: Date): Promise<Present[]> {
    const { rows } = await pool.query<Present>(
      `WITH seen AS (
         INSERT INTO projects.project_presence (project_id, user_id, username, seen_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_id, user_id) DO UPDATE SET username = EXCLUDED.username, seen_at = EXCLUDED.seen_at
       ), gone AS (
         DELETE FROM projects.project_presence
         WHERE project_id = $1 AND seen_at <= $4::timestamptz - make_interval(secs => $5)
       )
       SELECT user_id AS "userId", username FROM projects.project_presence
       WHERE project_id = $1 AND user_id <> $2 AND seen_at > $4::timestamptz - make_interval(secs => $5)
       ORDER BY username`,
      [projectId, user.userId, user.username, now, PRESENCE_SECONDS],
    );
    return rows;
  },

  async left(pool: pg.Pool, projectId: string, userId: string): Promise<void> {
    await pool.query('DELETE FROM projects.project_presence WHERE project_id = $1 AND user_id = $2', [
      projectId,
      userId,
    ]);
  },
};
