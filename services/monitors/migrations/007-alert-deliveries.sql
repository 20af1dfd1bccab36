-- Not events: each alert's delivery to each of its owner's channels (alert-channel), tried until it is
-- sent or given up. One per channel and alert: a redelivered event adds none.
CREATE TABLE alert_deliveries (
  delivery_id uuid PRIMARY KEY,
  -- The alerted event's id, or a test's: what a receiver tells a repeat by.
  alert_id uuid NOT NULL,
  channel_id uuid NOT NULL,
  user_id uuid NOT NULL,
  channel_name text NOT NULL,
  -- incident.opened, incident.closed, certificate.expiring or test.
  kind text NOT NULL,
  -- The message (AlertMessage): no credential, the channel's URL and secret stay in its stream.
  message jsonb NOT NULL,
  -- pending until sent, or failed after its last try.
  state text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  -- When it is next tried; a sender claims it by moving this on, as the checker claims a check.
  next_at timestamptz NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  UNIQUE (channel_id, alert_id)
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (next_at) WHERE state = 'pending';
CREATE INDEX alert_deliveries_by_user ON alert_deliveries (user_id, created_at DESC);
