-- Each team workspace's audit log (read-models/audit): one row per domain event of the workspace, its
-- members, its projects and their monitors; the row's id is the event's. `target` names what it was
-- done to (a project, the workspace), `target_user` whom (a member, named at read time from actors);
-- `address` is the client's, as the event's metadata kept it. Kept a year (timers/expire-audit takes
-- older entries away within the hour).
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

-- How many entries each workspace's log holds, by kind and actor (no actor: the nil uuid), kept by the
-- trigger below with every row written or taken away: a page's total (`X-Total-Count`) is a sum of a
-- few of these, not a count of the log's rows.
CREATE TABLE audit_totals (
  workspace_id uuid NOT NULL,
  kind text NOT NULL,
  actor_id uuid NOT NULL,
  entries integer NOT NULL,
  PRIMARY KEY (workspace_id, kind, actor_id)
);
CREATE FUNCTION audit_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO activity.audit_totals (workspace_id, kind, actor_id, entries)
    VALUES (NEW.workspace_id, NEW.kind, coalesce(NEW.actor_id, '00000000-0000-0000-0000-000000000000'), 1)
    ON CONFLICT (workspace_id, kind, actor_id) DO UPDATE SET entries = activity.audit_totals.entries + 1;
    RETURN NEW;
  END IF;
  UPDATE activity.audit_totals SET entries = entries - 1
  WHERE workspace_id = OLD.workspace_id AND kind = OLD.kind
    AND actor_id = coalesce(OLD.actor_id, '00000000-0000-0000-0000-000000000000');
  RETURN OLD;
END $$;
CREATE TRIGGER audit_counted AFTER INSERT OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_counted();

-- Which workspace each team project is in, and its name, for its monitors' entries and its deletion's:
-- written once per project, never deleted with it (the log outlives the project).
CREATE TABLE audit_projects (
  project_id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  name text NOT NULL
);
