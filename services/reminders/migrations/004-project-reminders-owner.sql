-- Each project's reminders carry their owner, so erasing a user deletes them like every other row.
ALTER TABLE project_reminders ADD COLUMN user_id uuid;
UPDATE project_reminders r SET user_id = p.user_id FROM projects p WHERE p.project_id = r.project_id;
DELETE FROM project_reminders WHERE user_id IS NULL;
ALTER TABLE project_reminders ALTER COLUMN user_id SET NOT NULL;
