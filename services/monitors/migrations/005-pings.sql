-- A project's cron ping URL (secretLinks): the SHA-256 of its secret alone, shown once when made.
CREATE TABLE ping_links (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ping_links_by_user ON ping_links (user_id);

-- Not events: each run a cron job pinged, from /start (or its end alone) to its end, ok or failed;
-- kept 7 days, as check results are.
CREATE TABLE ping_runs (
  run_id bigserial PRIMARY KEY,
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  -- 'running' until its end is pinged; then 'ok' or 'failed'.
  outcome text NOT NULL
);
CREATE INDEX ping_runs_by_project ON ping_runs (project_id, started_at DESC);
CREATE INDEX ping_runs_by_age ON ping_runs (started_at);
