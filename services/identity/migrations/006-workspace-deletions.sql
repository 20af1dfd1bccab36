-- Every deleted workspace and when: a day after its deletion, once every service has read the
-- cascade sealed with its key, the vault destroys that key (timers/shred-workspace-keys), which reads
-- vault.forgotten_subjects to know which are done. Projected from WorkspaceDeleted.
CREATE TABLE workspace_deletions (
  workspace_id uuid PRIMARY KEY,
  deleted_at timestamptz NOT NULL
);
