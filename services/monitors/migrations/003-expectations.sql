-- Missed work: a monitor can expect a backup or a deployment at a cadence instead of checking a URL.
ALTER TABLE monitor_list ADD COLUMN kind text NOT NULL DEFAULT 'http';
ALTER TABLE monitor_list ADD COLUMN grace_seconds integer NOT NULL DEFAULT 0;

-- Each project's latest backup and deployment (from the projects service's events): what an
-- expectation is checked against.
CREATE TABLE last_runs (
  project_id uuid NOT NULL,
  kind text NOT NULL,
  user_id uuid NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (project_id, kind)
);
