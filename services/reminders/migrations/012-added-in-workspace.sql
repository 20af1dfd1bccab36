-- The team workspace a reminder was added in (its ReminderAdded or ReminderImported names it): its
-- stream is sealed with that team's key from its first event, so it outlives its author's erasure
-- (decision 056). Null for one added on a personal project, moved into a team or not: its first event
-- is its author's.
ALTER TABLE reminder_list ADD COLUMN added_in_workspace uuid;
