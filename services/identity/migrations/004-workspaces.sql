-- Team workspaces, their members and their invites, projected from the `workspace-<id>` streams.
CREATE TABLE workspaces (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  role text NOT NULL,
  joined_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members (user_id);

-- An invite to an account (invitee_id) or to an address, kept as the SHA-256 of its lower-case form
-- (email_hash) with a hint for the admins' list. Only pending ones are kept.
CREATE TABLE workspace_invites (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  role text NOT NULL,
  invited_by uuid NOT NULL,
  invitee_id uuid,
  email_hash text,
  email_hint text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX workspace_invites_workspace ON workspace_invites (workspace_id);
CREATE INDEX workspace_invites_invitee ON workspace_invites (invitee_id) WHERE invitee_id IS NOT NULL;
CREATE INDEX workspace_invites_email ON workspace_invites (email_hash) WHERE email_hash IS NOT NULL;
