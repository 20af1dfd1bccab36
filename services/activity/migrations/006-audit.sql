-- Each team workspace's audit log (read-models/audit): one row per domain event of the workspace, its
-- members, its projects and their monitors; the row's id is the event's. `target` names what it was
-- done to (a project, the workspace), `target_user` whom (a member, named at read time from actors);
-- `address` is the client's, as the event's metadata kept it. Kept a year (timers/expire-audit).
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  at timestamptz NOT NULL,
  actor_id uuid,
  kind text NOT NULL,
  target text,
  target_user uuid,
  details jsonb NOT NULL DEFAULT '{}',
  address text
);
CREATE INDEX audit_log_by_workspace ON audit_log (workspace_id, at DESC, id DESC);
CREATE INDEX audit_log_by_actor ON audit_log (workspace_id, actor_id, at DESC, id DESC);
CREATE INDEX audit_log_by_kind ON audit_log (workspace_id, kind, at DESC, id DESC);
CREATE INDEX audit_log_by_time ON audit_log (at);

-- Which workspace each team project is in, and its name, for its monitors' entries and its deletion's:
-- written once per project, never deleted with it (the log outlives the project).
CREATE TABLE audit_projects (
  project_id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  name text NOT NULL
);
