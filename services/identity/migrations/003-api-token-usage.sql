-- When each personal API token was last used. Not an event: a use is not a change to the
-- account, and writing one per request would fill the user's stream. Kept to the minute.
CREATE TABLE api_token_usage (
  token_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  last_used_at timestamptz NOT NULL
);
CREATE INDEX api_token_usage_user ON api_token_usage (user_id);
