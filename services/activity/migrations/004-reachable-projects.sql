-- The timeline, the dashboard's counters and its charts read every project the user can reach: their
-- personal ones (by user, as before) and their workspaces' (by workspace, here), whoever made each;
-- and each of those projects' costs (by project, here).
CREATE INDEX project_stats_by_workspace ON project_stats (workspace_id) WHERE workspace_id IS NOT NULL;
CREATE INDEX cost_history_by_project ON cost_history (project_id, effective_from DESC, event_id DESC);
