-- The members of a team workspace who turned off its alerts by email (every member is mailed a team
-- project's alerts unless they say otherwise). Not a read model: each member's own choice, kept here
-- alone (alert-channel/alert-mail.ts).
CREATE TABLE workspace_alert_mail_off (
  workspace_id uuid NOT NULL,
  user_id uuid NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_alert_mail_off_by_user ON workspace_alert_mail_off (user_id);
