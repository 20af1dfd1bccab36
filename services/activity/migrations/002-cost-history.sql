-- Each project's cost estimate over time (the dashboard's monthly cost chart): one row from its
-- creation, and one more each time the estimate changes. A deleted project's rows go with it.
CREATE TABLE cost_history (
  event_id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  name text NOT NULL,
  effective_from timestamptz NOT NULL,
  cost_cents integer
);
CREATE INDEX cost_history_by_user ON cost_history (user_id, project_id, effective_from);
