-- Monitors as the API lists them and the checker reads them (read model monitor-list).
CREATE TABLE monitor_list (
  monitor_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  project_id uuid NOT NULL,
  project_name text NOT NULL,
  url text NOT NULL,
  interval_seconds integer NOT NULL,
  expected_statuses text NOT NULL,
  keyword text,
  keyword_present boolean NOT NULL,
  failure_threshold integer NOT NULL,
  -- null while it is checked; 'user' or 'plan' while paused.
  paused text,
  incident_id uuid,
  incident_started_at timestamptz,
  incident_cause text,
  -- Since when it has been in its state (added, paused, resumed, down, up again).
  state_since timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX monitor_list_by_user ON monitor_list (user_id, created_at);
CREATE INDEX monitor_list_by_project ON monitor_list (project_id, created_at);

-- Incidents, open and past (read model monitor-list).
CREATE TABLE incidents (
  incident_id uuid PRIMARY KEY,
  monitor_id uuid NOT NULL,
  user_id uuid NOT NULL,
  project_id uuid NOT NULL,
  url text NOT NULL,
  cause text NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX incidents_by_monitor ON incidents (monitor_id, started_at DESC);
CREATE INDEX incidents_by_user ON incidents (user_id, started_at DESC);

-- Not a read model: the checker's own schedule (reactions/run-checks). A row is claimed by moving
-- next_at on, in one statement, so each check runs once per period whichever replica claims it;
-- running_until keeps a slow check from being claimed again while it runs.
CREATE TABLE check_schedule (
  monitor_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  next_at timestamptz NOT NULL,
  running_until timestamptz NOT NULL
);

-- Not events: each check's result, kept 7 days (raw) and as hourly counts for 90 days.
CREATE TABLE check_results (
  monitor_id uuid NOT NULL,
  user_id uuid NOT NULL,
  checked_at timestamptz NOT NULL,
  ok boolean NOT NULL,
  status integer,
  ms integer,
  cause text
);
CREATE INDEX check_results_by_monitor ON check_results (monitor_id, checked_at DESC);
CREATE INDEX check_results_by_age ON check_results (checked_at);

CREATE TABLE check_rollups (
  monitor_id uuid NOT NULL,
  user_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  checks integer NOT NULL,
  passed integer NOT NULL,
  PRIMARY KEY (monitor_id, hour)
);
CREATE INDEX check_rollups_by_age ON check_rollups (hour);

-- What this service knows of others (service-kit knownProjectsIn): projects and their owners, users
-- and their addresses (alerts are emailed only to a proven one).
CREATE TABLE projects (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  name text NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);
CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  username text NOT NULL,
  email text,
  email_verified boolean NOT NULL DEFAULT false
);

-- Which monitors are on which project, for the cascade when a project is deleted.
CREATE TABLE project_monitors (
  monitor_id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  user_id uuid NOT NULL
);
CREATE INDEX project_monitors_by_project ON project_monitors (project_id);
