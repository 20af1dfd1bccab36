-- The devices that receive push reminders. A push subscription (its endpoint and keys) is a credential
-- for a device, not a domain fact: anyone holding it can send to that device. It is kept here, never in
-- an event or a log, and goes when the user turns push off there, when the push service reports it gone,
-- or with the account. One row per endpoint: a browser's subscription belongs to whoever last turned
-- push on in it.
CREATE TABLE push_subscriptions (
  endpoint text PRIMARY KEY,
  user_id uuid NOT NULL,
  p256dh text NOT NULL,
  auth text NOT NULL,
  label text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
