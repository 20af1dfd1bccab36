-- The activity timeline (spec/core.md §3 activities): one row per event that the timeline shows; the
-- row's id is the event's id, which makes the projector idempotent.
CREATE TABLE activities (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  project_id uuid,
  event_type text NOT NULL,
  action text NOT NULL,
  details text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  version text,
  status text NOT NULL DEFAULT 'success',
  timestamp timestamptz NOT NULL
);
CREATE INDEX activities_by_user ON activities (user_id, timestamp DESC, id DESC);
CREATE INDEX activities_by_project ON activities (project_id, timestamp DESC, id DESC);

-- The dashboard counters' source: each live project's owner, status and creation time.
CREATE TABLE project_stats (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX project_stats_by_user ON project_stats (user_id);
