-- Admin comments can be edited, switched off and deleted; contact messages can be marked handled.
ALTER TABLE admin_comments ADD COLUMN updated_at timestamptz;
UPDATE admin_comments SET updated_at = created_at;
ALTER TABLE admin_comments ALTER COLUMN updated_at SET NOT NULL;

ALTER TABLE contact_messages ADD COLUMN handled_at timestamptz;
CREATE INDEX contact_messages_newest ON contact_messages (created_at DESC, id DESC);

-- The admin dashboard's user table: the account from identity's events, the plan from billing's.
-- A row can start from either side (the two sources are not ordered together): until the account's
-- own event arrives its username is null, and the list leaves it out.
CREATE TABLE admin_users (
  user_id uuid PRIMARY KEY,
  username text,
  email text,
  created_at timestamptz,
  subscription_status text,
  trial_start timestamptz,
  trial_end timestamptz
);
CREATE INDEX admin_users_newest ON admin_users (created_at DESC, user_id DESC) WHERE username IS NOT NULL;
