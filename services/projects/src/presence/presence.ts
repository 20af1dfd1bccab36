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
  /** The others here now, and whether the caller arrived (was not here in the last 45 s). */
  async seen(
    pool: pg.Pool,
    projectId: string,
    user: Present,
    now: Date,
  ): Promise<{ others: Present[]; arrived: boolean }> {
    const { rows } = await pool.query<{ others: Present[]; arrived: boolean }>(
      `WITH before AS (
         SELECT 1 FROM projects.project_presence
         WHERE project_id = $1 AND user_id = $2 AND seen_at > $4::timestamptz - make_interval(secs => $5)
       ), seen AS (
         INSERT INTO projects.project_presence (project_id, user_id, username, seen_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_id, user_id) DO UPDATE SET username = EXCLUDED.username, seen_at = EXCLUDED.seen_at
       ), gone AS (
         DELETE FROM projects.project_presence
         WHERE project_id = $1 AND seen_at <= $4::timestamptz - make_interval(secs => $5)
       )
       SELECT NOT EXISTS (SELECT 1 FROM before) AS arrived, coalesce((
         SELECT json_agg(json_build_object('userId', user_id, 'username', username) ORDER BY username)
         FROM projects.project_presence
         WHERE project_id = $1 AND user_id <> $2 AND seen_at > $4::timestamptz - make_interval(secs => $5)
       ), '[]') AS others`,
      [projectId, user.userId, user.username, now, PRESENCE_SECONDS],
    );
    return rows[0]!;
  },

  /** Whether the caller was here (and so has left). */
  async left(pool: pg.Pool, projectId: string, userId: string): Promise<boolean> {
    const { rowCount } = await pool.query(
      'DELETE FROM projects.project_presence WHERE project_id = $1 AND user_id = $2',
      [projectId, userId],
    );
    return (rowCount ?? 0) > 0;
  },
};
