-- Who has a project's page open now: each member's last sign of it (the page says so every 20 s while
-- it is shown, and goes when it is left). Not a read model: presence is no domain fact, and a row
-- older than 45 s counts for nothing (presence/presence.ts, which alone writes it).
CREATE TABLE project_presence (
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  username text NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_presence_by_user ON project_presence (user_id);
