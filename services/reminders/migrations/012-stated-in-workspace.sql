-- The team workspace whose key a reminder's stream reads whole with: the one named by the event that
-- last stated it whole (its ReminderAdded or ReminderImported, or a ReminderMoved when its project
-- changed space). A team's reminder so stated outlives its author's erasure (decisions 056 and 058);
-- null for one stated in a personal space, whose first readable event is its author's.
ALTER TABLE reminder_list ADD COLUMN stated_in_workspace uuid;
