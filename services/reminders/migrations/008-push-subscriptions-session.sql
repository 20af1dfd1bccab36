-- A device's push subscription ends with the session it was turned on in (decision 044): `session` is
-- that session's public name (the gateway's `sessionHandle`, a hash of its id, never the id). When the
-- session ends, the gateway asks for its devices to be forgotten. Subscriptions recorded without a
-- session cannot be tied to one, so they go: each device turns push on again.
DELETE FROM push_subscriptions;
ALTER TABLE push_subscriptions ADD COLUMN session text NOT NULL;
CREATE INDEX push_subscriptions_session ON push_subscriptions (user_id, session);
