-- A project's team workspace (null: its maker's personal space), and who belongs to each workspace
-- with what role (contracts' workspaceMembersIn, the workspace-members projection): whose a project is
-- to read and change.
ALTER TABLE project_list ADD COLUMN workspace_id uuid;
CREATE INDEX project_list_by_workspace ON project_list (workspace_id, created_at DESC) WHERE workspace_id IS NOT NULL;
CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL,
  user_id uuid NOT NULL,
  role text NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members (user_id);
