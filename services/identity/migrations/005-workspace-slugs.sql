-- Each workspace's public status page address (`/w/{slug}/status`), and every slug claimed: the
-- current one of each workspace (redirect_until null), and those given up, which still lead to their
-- workspace until redirect_until (30 days). Projected from the `workspace-slug-<slug>` streams.
ALTER TABLE workspaces ADD COLUMN slug text;
CREATE TABLE workspace_slugs (
  slug text PRIMARY KEY,
  workspace_id uuid NOT NULL,
  redirect_until timestamptz
);
