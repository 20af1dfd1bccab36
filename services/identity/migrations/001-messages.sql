-- Administrators' messages to all users, as the sidebar and settings read them.
CREATE TABLE admin_comments (
  id uuid PRIMARY KEY,
  message text NOT NULL,
  priority text NOT NULL,
  created_by uuid NOT NULL,
  admin_username text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  expires_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX admin_comments_active ON admin_comments (created_at DESC) WHERE is_active;

-- Users' messages to the administrators (the admin dashboard reads them).
CREATE TABLE contact_messages (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  username text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL
);
