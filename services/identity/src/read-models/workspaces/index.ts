import type { MemberView, ReceivedInviteView, SentInviteView, WorkspaceRole, WorkspaceView } from '@shiplog/schemas';
import type { ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';

/**
 * The workspaces each user belongs to, their members and their pending invites, from identity's own
 * events. The members' names come from the admin table's usernames (admin-users), read beside them.
 */
export const workspacesProjection: ProjectionDefinition = {
  name: 'workspaces',
  sources: ['identity'],
  tables: ['workspaces', 'workspace_members', 'workspace_invites', 'workspace_slugs', 'workspace_deletions'],
  handlers: {
    WorkspaceCreated: async ({ data: d }, tx) => {
      await tx.query(
        'INSERT INTO identity.workspaces (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
        [d.workspaceId, d.name, d.at],
      );
      await tx.query(
        `INSERT INTO identity.workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, 'owner', $3)
         ON CONFLICT DO NOTHING`,
        [d.workspaceId, d.ownerId, d.at],
      );
    },
    WorkspaceRenamed: async ({ data: d }, tx) => {
      await tx.query('UPDATE identity.workspaces SET name = $2 WHERE id = $1', [d.workspaceId, d.name]);
    },
    WorkspaceSlugSet: async ({ data: d }, tx) => {
      await tx.query('UPDATE identity.workspaces SET slug = $2 WHERE id = $1', [d.workspaceId, d.slug]);
    },
    WorkspaceSlugClaimed: async ({ data: d }, tx) => {
      await tx.query(
        `INSERT INTO identity.workspace_slugs (slug, workspace_id, redirect_until) VALUES ($1, $2, NULL)
         ON CONFLICT (slug) DO UPDATE SET workspace_id = EXCLUDED.workspace_id, redirect_until = NULL`,
        [d.slug, d.workspaceId],
      );
    },
    WorkspaceSlugReleased: async ({ data: d }, tx) => {
      await tx.query('UPDATE identity.workspace_slugs SET redirect_until = $3 WHERE slug = $1 AND workspace_id = $2', [
        d.slug,
        d.workspaceId,
        d.redirectUntil,
      ]);
    },
    // Its members and invites go with it (ON DELETE CASCADE), its slugs lead nowhere, and its key is
    // destroyed a day later (timers/shred-workspace-keys).
    WorkspaceDeleted: async ({ data: d }, tx) => {
      await tx.query('DELETE FROM identity.workspace_slugs WHERE workspace_id = $1', [d.workspaceId]);
      await tx.query('DELETE FROM identity.workspaces WHERE id = $1', [d.workspaceId]);
      await tx.query(
        'INSERT INTO identity.workspace_deletions (workspace_id, deleted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [d.workspaceId, d.at],
      );
    },
    WorkspaceInviteSent: async ({ data: d }, tx) => {
      await tx.query(
        `INSERT INTO identity.workspace_invites
           (id, workspace_id, role, invited_by, invitee_id, email_hash, email_hint, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
        [d.inviteId, d.workspaceId, d.role, d.invitedBy, d.inviteeId, d.emailHash, d.emailHint, d.expiresAt, d.at],
      );
    },
    WorkspaceInviteRevoked: async ({ data: d }, tx) => {
      await tx.query('DELETE FROM identity.workspace_invites WHERE id = $1', [d.inviteId]);
    },
    WorkspaceInviteDeclined: async ({ data: d }, tx) => {
      await tx.query('DELETE FROM identity.workspace_invites WHERE id = $1', [d.inviteId]);
    },
    WorkspaceMemberJoined: async ({ data: d }, tx) => {
      await tx.query('DELETE FROM identity.workspace_invites WHERE id = $1', [d.inviteId]);
      await tx.query(
        `INSERT INTO identity.workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
        [d.workspaceId, d.memberId, d.role, d.at],
      );
    },
    WorkspaceMemberRoleChanged: async ({ data: d }, tx) => {
      await tx.query('UPDATE identity.workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2', [
        d.workspaceId,
        d.memberId,
        d.role,
      ]);
    },
    WorkspaceMemberRemoved: async ({ data: d }, tx) => {
      await tx.query('DELETE FROM identity.workspace_members WHERE workspace_id = $1 AND user_id = $2', [
        d.workspaceId,
        d.memberId,
      ]);
    },
  },
};

const iso = (column: string, alias: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${alias}"`;

/** A user's workspaces as each is shown to them: its name, their role and how many members it has. */
const MEMBER_VIEW = `SELECT w.id, w.name, w.slug, m.role, ${iso('w.created_at', 'createdAt')},
         (SELECT count(*)::int FROM identity.workspace_members c WHERE c.workspace_id = w.id) AS "memberCount"
  FROM identity.workspace_members m JOIN identity.workspaces w ON w.id = m.workspace_id
  WHERE m.user_id = $1`;

/** The workspaces a user belongs to, with their role and how many members each has, by name. */
export async function workspacesOf(pool: pg.Pool, userId: string): Promise<WorkspaceView[]> {
  const { rows } = await pool.query<WorkspaceView>(`${MEMBER_VIEW} ORDER BY lower(w.name), w.id`, [userId]);
  return rows;
}

/** One workspace as a member sees it, or null when the user is not one of its members. */
export async function workspaceOf(pool: pg.Pool, workspaceId: string, userId: string): Promise<WorkspaceView | null> {
  const { rows } = await pool.query<WorkspaceView>(`${MEMBER_VIEW} AND m.workspace_id = $2`, [userId, workspaceId]);
  return rows[0] ?? null;
}

/** A workspace's members, owners first, then by when they joined. */
export async function membersOf(pool: pg.Pool, workspaceId: string): Promise<MemberView[]> {
  const { rows } = await pool.query<MemberView & { role: WorkspaceRole }>(
    `SELECT m.user_id AS "userId", coalesce(u.username, 'deleted user') AS username, m.role, ${iso('m.joined_at', 'joinedAt')}
     FROM identity.workspace_members m LEFT JOIN identity.admin_users u ON u.user_id = m.user_id
     WHERE m.workspace_id = $1
     ORDER BY array_position(ARRAY['owner', 'admin', 'member', 'viewer'], m.role), m.joined_at, m.user_id`,
    [workspaceId],
  );
  return rows;
}

/** A workspace's invites still open at `now`, newest first. */
export async function sentInvites(pool: pg.Pool, workspaceId: string, now: Date): Promise<SentInviteView[]> {
  const { rows } = await pool.query<SentInviteView>(
    `SELECT i.id, i.role, coalesce(invitee.username, i.email_hint, 'someone') AS "to",
            coalesce(inviter.username, 'deleted user') AS "invitedBy", ${iso('i.expires_at', 'expiresAt')}
     FROM identity.workspace_invites i
     LEFT JOIN identity.admin_users invitee ON invitee.user_id = i.invitee_id
     LEFT JOIN identity.admin_users inviter ON inviter.user_id = i.invited_by
     WHERE i.workspace_id = $1 AND i.expires_at > $2 ORDER BY i.created_at DESC, i.id`,
    [workspaceId, now],
  );
  return rows;
}

/** The invites open at `now` for an account: to it, or to its proven address (its SHA-256). */
export async function receivedInvites(
  pool: pg.Pool,
  invited: { userId: string; provenEmailHash: string | null },
  now: Date,
): Promise<ReceivedInviteView[]> {
  const { rows } = await pool.query<{
    id: string;
    workspaceId: string;
    workspaceName: string;
    role: ReceivedInviteView['role'];
    invitedBy: string;
    expiresAt: string;
  }>(
    `SELECT i.id, w.id AS "workspaceId", w.name AS "workspaceName", i.role,
            coalesce(inviter.username, 'deleted user') AS "invitedBy", ${iso('i.expires_at', 'expiresAt')}
     FROM identity.workspace_invites i
     JOIN identity.workspaces w ON w.id = i.workspace_id
     LEFT JOIN identity.admin_users inviter ON inviter.user_id = i.invited_by
     WHERE (i.invitee_id = $1 OR ($2::text IS NOT NULL AND i.email_hash = $2)) AND i.expires_at > $3
       AND NOT EXISTS (SELECT 1 FROM identity.workspace_members m WHERE m.workspace_id = i.workspace_id AND m.user_id = $1)
     ORDER BY i.created_at DESC, i.id`,
    [invited.userId, invited.provenEmailHash, now],
  );
  return rows.map(({ workspaceId, workspaceName, ...invite }) => ({
    ...invite,
    workspace: { id: workspaceId, name: workspaceName },
  }));
}

/** The workspaces a user belongs to, with their role: what their account's deletion must settle. */
export async function membershipsOf(
  pool: pg.Pool,
  userId: string,
): Promise<{ workspaceId: string; role: WorkspaceRole }[]> {
  const { rows } = await pool.query<{ workspaceId: string; role: WorkspaceRole }>(
    'SELECT workspace_id AS "workspaceId", role FROM identity.workspace_members WHERE user_id = $1',
    [userId],
  );
  return rows;
}

/** The workspace a pending invite is in, or null. */
export async function inviteWorkspace(pool: pg.Pool, inviteId: string): Promise<string | null> {
  const { rows } = await pool.query<{ workspace_id: string }>(
    'SELECT workspace_id FROM identity.workspace_invites WHERE id = $1',
    [inviteId],
  );
  return rows[0]?.workspace_id ?? null;
}

/**
 * The workspace a slug leads to, by its current slug (a slug given up leads there for 30 days), or
 * null: for its public status page.
 */
export async function workspaceBySlug(
  pool: pg.Pool,
  slug: string,
  now: Date,
): Promise<{ workspaceId: string; name: string; slug: string } | null> {
  const { rows } = await pool.query<{ workspaceId: string; name: string; slug: string }>(
    `SELECT w.id AS "workspaceId", w.name, w.slug FROM identity.workspace_slugs s
     JOIN identity.workspaces w ON w.id = s.workspace_id
     WHERE s.slug = $1 AND (s.redirect_until IS NULL OR s.redirect_until > $2) AND w.slug IS NOT NULL`,
    [slug, now],
  );
  return rows[0] ?? null;
}

/** The workspaces deleted by `deletedBefore` whose key the vault has not destroyed yet. */
export async function workspacesToShred(pool: pg.Pool, deletedBefore: Date): Promise<string[]> {
  const { rows } = await pool.query<{ workspace_id: string }>(
    `SELECT workspace_id FROM identity.workspace_deletions d WHERE deleted_at <= $1
     AND NOT EXISTS (SELECT 1 FROM vault.forgotten_subjects f WHERE f.subject = d.workspace_id)`,
    [deletedBefore],
  );
  return rows.map((row) => row.workspace_id);
}
