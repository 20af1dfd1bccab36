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
  trial_end timestamptz,
  -- What the admin's search matches: the username and the email, lower case.
  search text GENERATED ALWAYS AS (lower(username) || E'\n' || lower(coalesce(email, ''))) STORED
);
CREATE INDEX admin_users_newest ON admin_users (created_at DESC, user_id DESC) WHERE username IS NOT NULL;

-- The admin's search is a substring of the username or email: a trigram index answers it without
-- reading every row (10,000 users: bench/admin-users.ts). pg_trgm is a trusted extension that ships
-- with PostgreSQL; where it cannot be installed the search still works, by reading the table.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): the admin user search reads the whole table', SQLERRM;
END $$;
DO $$
DECLARE
  trgm text := (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm');
BEGIN
  IF trgm IS NOT NULL THEN
    EXECUTE format('CREATE INDEX admin_users_search ON admin_users USING gin (search %I.gin_trgm_ops)', trgm);
  END IF;
END $$;
