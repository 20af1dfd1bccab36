-- The Quick Update gate asks billing at the moment it decides (service-kit's plan-gates.ts), so the
-- projection of billing's events it used to read goes, with its consumer's bookkeeping.
DROP TABLE subscriptions;
DO $$
BEGIN
  IF to_regclass('consumer_positions') IS NOT NULL THEN
    DELETE FROM consumer_positions WHERE consumer = 'projects-subscriptions';
    DELETE FROM handled_events WHERE consumer = 'projects-subscriptions';
  END IF;
END $$;
