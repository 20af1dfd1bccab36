import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * Each member's choice to have a team workspace's alerts emailed to them or not: on unless turned off
 * (`monitors.workspace_alert_mail_off`, kept here alone). Whom an alert is then mailed to is the
 * known projects' `alertRecipients`.
 */
export const alertMail = {
  async isOn(db: Queryable, workspaceId: string, userId: string): Promise<boolean> {
    const { rows } = await db.query(
      'SELECT 1 FROM monitors.workspace_alert_mail_off WHERE workspace_id = $1 AND user_id = $2',
      [workspaceId, userId],
    );
    return rows.length === 0;
  },

  async set(db: Queryable, workspaceId: string, userId: string, on: boolean): Promise<void> {
    await db.query(
      on
        ? 'DELETE FROM monitors.workspace_alert_mail_off WHERE workspace_id = $1 AND user_id = $2'
        : 'INSERT INTO monitors.workspace_alert_mail_off (workspace_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [workspaceId, userId],
    );
  },
};
