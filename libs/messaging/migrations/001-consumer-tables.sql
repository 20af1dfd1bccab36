-- What every consumer of the service records: the events it handled (a redelivery has no second
-- effect), how far it got per source, and the events it set aside (decision 013).
CREATE TABLE IF NOT EXISTS handled_events (
  consumer text NOT NULL,
  event_id uuid NOT NULL,
  handled_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (consumer, event_id)
);
CREATE TABLE IF NOT EXISTS consumer_positions (
  consumer text NOT NULL,
  source text NOT NULL,
  commit_position numeric(20) NOT NULL,
  prepare_position bigint NOT NULL,
  PRIMARY KEY (consumer, source)
);
CREATE TABLE IF NOT EXISTS parked_events (
  consumer text NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  source text NOT NULL,
  position text NOT NULL,
  user_id uuid,
  event json NOT NULL,
  error text NOT NULL,
  parked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
CREATE INDEX IF NOT EXISTS parked_events_user ON parked_events (user_id);
