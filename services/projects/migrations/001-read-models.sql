-- The project list: one JSON document per project, in the API's shape, so a list read is one query.
CREATE TABLE project_list (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  doc jsonb NOT NULL
);
CREATE INDEX project_list_by_user ON project_list (user_id, created_at DESC);

-- Each user's subscription status, from billing's events: the Quick Update gate.
CREATE TABLE subscriptions (
  user_id uuid PRIMARY KEY,
  status text NOT NULL
);
