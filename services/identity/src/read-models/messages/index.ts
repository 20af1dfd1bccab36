import type { AdminComment, AdminCommentRow, ContactMessage } from '@shiplog/schemas';
import type { ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';

/** Admin comments and contact messages, projected from identity's own events. */
export const messagesProjection: ProjectionDefinition = {
  name: 'messages',
  sources: ['identity'],
  tables: ['admin_comments', 'contact_messages'],
  handlers: {
    AdminCommentPosted: async (event, tx) => {
      const d = event.data;
      await tx.query(
        `INSERT INTO identity.admin_comments (id, message, priority, created_by, admin_username, expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (id) DO NOTHING`,
        [d.commentId, d.message, d.priority, d.createdBy, d.adminUsername, d.expiresAt, d.at],
      );
    },
    AdminCommentEdited: async (event, tx) => {
      const d = event.data;
      await tx.query('UPDATE identity.admin_comments SET message = $2, priority = $3, updated_at = $4 WHERE id = $1', [
        d.commentId,
        d.message,
        d.priority,
        d.at,
      ]);
    },
    AdminCommentActivationChanged: async (event, tx) => {
      const d = event.data;
      await tx.query('UPDATE identity.admin_comments SET is_active = $2, updated_at = $3 WHERE id = $1', [
        d.commentId,
        d.isActive,
        d.at,
      ]);
    },
    AdminCommentDeleted: async (event, tx) => {
      const d = event.data;
      await tx.query('DELETE FROM identity.admin_comments WHERE id = $1', [d.commentId]);
    },
    ContactMessageSent: async (event, tx) => {
      const d = event.data;
      await tx.query(
        `INSERT INTO identity.contact_messages (id, user_id, username, subject, message, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        [d.messageId, d.userId, d.username, d.subject, d.message, d.at],
      );
    },
    ContactMessageHandled: async (event, tx) => {
      const d = event.data;
      await tx.query('UPDATE identity.contact_messages SET handled_at = $2 WHERE id = $1', [
        d.messageId,
        d.handled ? d.at : null,
      ]);
    },
  },
};

const iso = (column: string, alias: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${alias}"`;

/** Active, unexpired messages, newest first: what every user's sidebar shows. */
export async function activeAdminComments(pool: pg.Pool): Promise<AdminComment[]> {
  const { rows } = await pool.query<AdminComment>(
    `SELECT id, message, priority, ${iso('created_at', 'createdAt')}, admin_username AS "adminUsername"
     FROM identity.admin_comments WHERE is_active AND (expires_at IS NULL OR expires_at > now()) ORDER BY created_at DESC, id DESC`,
  );
  return rows;
}

/** Every comment, active or not, newest first: the admin dashboard's list. */
export async function allAdminComments(pool: pg.Pool): Promise<AdminCommentRow[]> {
  const { rows } = await pool.query<AdminCommentRow>(
    `SELECT id, message, priority, is_active AS "isActive", created_by AS "createdBy", admin_username AS "adminUsername",
            ${iso('expires_at', 'expiresAt')}, ${iso('created_at', 'createdAt')}, ${iso('updated_at', 'updatedAt')}
     FROM identity.admin_comments ORDER BY created_at DESC, id DESC`,
  );
  return rows;
}

/** The admin's inbox: users' messages, newest first, with sender and time. */
export async function contactMessages(pool: pg.Pool): Promise<ContactMessage[]> {
  const { rows } = await pool.query<ContactMessage>(
    `SELECT id, user_id AS "userId", username, subject, message, ${iso('created_at', 'createdAt')},
            handled_at IS NOT NULL AS handled, ${iso('handled_at', 'handledAt')}
     FROM identity.contact_messages ORDER BY created_at DESC, id DESC LIMIT 200`,
  );
  return rows;
}
