-- An answer slower than this shows the monitor as degraded (not an incident); null: none.
ALTER TABLE monitor_list ADD COLUMN max_response_ms integer;
