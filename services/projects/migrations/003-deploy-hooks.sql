-- Each project's deploy webhook: the secret in its URL, kept to be shown to its owner again,
-- and its hash, by which a delivery finds its project.
CREATE TABLE deploy_hooks (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  token text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deploy_hooks_by_user ON deploy_hooks (user_id);
