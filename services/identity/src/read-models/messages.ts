import type { AdminComment } from '@shiplog/schemas';
import type { ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';

/** Admin comments and contact messages, projected from identity's own events. */
export const messagesProjection: ProjectionDefinition = {
  name: 'messages',
  sources: ['identity'],
  tables: ['admin_comments', 'contact_messages'],
  handlers: {
    AdminCommentPosted: async (event, tx) => {
      const d = event.data as {
        commentId: string;
        message: string;
        priority: string;
        createdBy: string;
        adminUsername: string;
        expiresAt: string | null;
        at: string;
      };
      await tx.query(
        `INSERT INTO identity.admin_comments (id, message, priority, created_by, admin_username, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        [d.commentId, d.message, d.priority, d.createdBy, d.adminUsername, d.expiresAt, d.at],
      );
    },
    ContactMessageSent: async (event, tx) => {
      const d = event.data as {
        messageId: string;
        userId: string;
        username: string;
        subject: string;
        message: string;
        at: string;
      };
      await tx.query(
        `INSERT INTO identity.contact_messages (id, user_id, username, subject, message, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        [d.messageId, d.userId, d.username, d.subject, d.message, d.at],
      );
    },
  },
};

/** Active, unexpired messages, newest first. */
export async function activeAdminComments(pool: pg.Pool): Promise<AdminComment[]> {
  const { rows } = await pool.query<AdminComment>(
    `SELECT id, message, priority, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt", admin_username AS "adminUsername"
     FROM identity.admin_comments WHERE is_active AND (expires_at IS NULL OR expires_at > now()) ORDER BY created_at DESC, id DESC`,
  );
  return rows;
}
