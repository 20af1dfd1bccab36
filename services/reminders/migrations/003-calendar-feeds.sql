-- Private calendar feed links. The token is a credential (like a session), not a domain fact: it is
-- kept here, not in the event stream, and looked up by its SHA-256.
CREATE TABLE calendar_feeds (
  user_id uuid PRIMARY KEY,
  token text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
