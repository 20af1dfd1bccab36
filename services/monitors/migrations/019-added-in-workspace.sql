-- The team workspace a monitor was added in (its MonitorAdded names it): its stream is sealed with that
-- team's key from its first event, so it outlives its maker's erasure (decision 057). Null for one added
-- on a personal project, moved into a team or not: its first event is its maker's.
ALTER TABLE monitor_list ADD COLUMN added_in_workspace uuid;
