-- How far the service's relay has published its store (one row).
CREATE TABLE IF NOT EXISTS relay_checkpoint (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  commit_position numeric(20) NOT NULL,
  prepare_position bigint NOT NULL
);
