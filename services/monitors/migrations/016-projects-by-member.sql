-- The monitor list reads the monitors of every project the user can reach (their own personal
-- projects, and their workspaces' projects): these find those projects without reading them all.
CREATE INDEX projects_by_user ON projects (user_id);
CREATE INDEX projects_by_workspace ON projects (workspace_id) WHERE workspace_id IS NOT NULL;
