-- A project's team workspace (null: its maker's personal space), and who belongs to each workspace
-- with what role (contracts' workspaceMembersIn): whose a project's timeline is to read.
ALTER TABLE project_stats ADD COLUMN workspace_id uuid;
CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL,
  user_id uuid NOT NULL,
  role text NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members (user_id);
