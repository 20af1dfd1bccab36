-- Each account's plan as billing's events tell it (read model plans): its monitors run while it is in
-- its trial or subscribed, and pause (reason 'plan') when it lapses.
CREATE TABLE plans (
  user_id uuid PRIMARY KEY,
  status text NOT NULL,
  trial_end timestamptz,
  -- The end of a paid period that will not renew (cancel at period end), else null.
  cancel_ends timestamptz
);
