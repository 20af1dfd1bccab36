-- Minutes between reminders while an incident stays open (IncidentRepeated); 0: none.
ALTER TABLE monitor_list ADD COLUMN repeat_minutes integer NOT NULL DEFAULT 0;
