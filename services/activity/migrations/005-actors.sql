-- Who did what on the timeline: each row's actor (the user whose request made the event; null for a
-- platform, a webhook or Shiplog's own checks and timers), the API token's name when one made it, and
-- the names of the users who act (the actors read model), read beside the rows. Rows projected before
-- actors were kept have none until a rebuild (`pnpm projections:rebuild activity`).
ALTER TABLE activities ADD COLUMN actor_id uuid, ADD COLUMN actor_token text;
CREATE TABLE actors (
  user_id uuid PRIMARY KEY,
  username text NOT NULL
);
