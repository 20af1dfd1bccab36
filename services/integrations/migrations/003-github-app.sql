-- A connection made through the server's GitHub App: its installation, which the app's one webhook
-- names in every delivery (a delivery finds the connections made through it). NULL: with a token.
ALTER TABLE github_hooks ADD COLUMN installation_id bigint;
CREATE INDEX github_hooks_installation ON github_hooks (installation_id) WHERE installation_id IS NOT NULL;
