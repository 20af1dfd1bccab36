-- GitHub connections (`github-<userId>` streams, none of whose events is published: the token and the
-- webhook secret are sealed in them). These two tables are not read models: they are written by
-- src/github/links.ts beside the connection's commands, and go with the account (forgetUser).
--
-- Whose connection a webhook address names (`/api/hooks/github/{hook_key}`): a delivery finds the
-- connection to verify its signature with.
CREATE TABLE github_hooks (
  hook_key text PRIMARY KEY,
  user_id uuid NOT NULL UNIQUE
);

-- Each project's repository, as whoever joined them holds the link, and what GitHub last told of it:
-- its default branch's newest commit and its latest release (for the project's card), and what each
-- environment last deployed (what the next deployment shipped is counted from it). One repository
-- per project, so a delivery reaches one project.
CREATE TABLE github_links (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  repository_id bigint NOT NULL,
  full_name text NOT NULL,
  html_url text NOT NULL,
  default_branch text NOT NULL,
  -- The webhook was made through GitHub's API; false: it is the user's to add by hand.
  webhook boolean NOT NULL,
  last_commit jsonb,
  latest_release jsonb,
  -- Each environment's last deployed commit: the next deployment there shipped what came after it.
  deployed jsonb NOT NULL DEFAULT '{}',
  linked_at timestamptz NOT NULL
);
CREATE INDEX github_links_by_repository ON github_links (user_id, repository_id);
