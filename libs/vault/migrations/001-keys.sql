-- Each user's data key (wrapped with the master key), in the shared `vault` schema.
CREATE TABLE IF NOT EXISTS subject_keys (
  subject uuid PRIMARY KEY,
  key bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Keys from before wrapping, found at every start without reading the table (see rewrapKeys).
CREATE INDEX IF NOT EXISTS subject_keys_bare ON subject_keys (subject) WHERE length(key) = 32;
-- Ids only: who was forgotten, so that no key is ever made for them again.
CREATE TABLE IF NOT EXISTS forgotten_subjects (
  subject uuid PRIMARY KEY,
  forgotten_at timestamptz NOT NULL DEFAULT now()
);
