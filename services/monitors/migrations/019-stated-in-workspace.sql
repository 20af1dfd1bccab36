-- The team workspace whose key a monitor's stream reads whole with: the one named by the event that last
-- stated it whole (its MonitorAdded, or a MonitorMoved when its project changed space). A team's monitor
-- so stated outlives its maker's erasure (decisions 057 and 058); null for one stated in a personal
-- space, whose first readable event is its maker's.
ALTER TABLE monitor_list ADD COLUMN stated_in_workspace uuid;
