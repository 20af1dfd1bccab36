-- When the scheduler next looks at each reminder (kept by the reminder-list projection).
CREATE TABLE schedule (
  reminder_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  next_at timestamptz NOT NULL
);
CREATE INDEX schedule_by_time ON schedule (next_at);

-- Where reminder emails go: each user's address, from identity's events.
CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  username text NOT NULL,
  email text
);
