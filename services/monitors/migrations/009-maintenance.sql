-- A production deployment under way on each project (DeploymentRecorded, status started): while it
-- lasts, its monitors' failures open no incident. A success or failure of a production deployment to
-- the project ends it; so does an hour without either (MAINTENANCE_MAX_MINUTES, monitor/maintenance.ts).
CREATE TABLE maintenance (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  version text,
  started_at timestamptz NOT NULL,
  ended_at timestamptz
);
