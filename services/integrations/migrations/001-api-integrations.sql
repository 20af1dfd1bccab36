-- The users' integrations (spec/account.md §3 `api_integrations`): a projection of the
-- `integrations-<userId>` streams, rebuilt from them by `pnpm projections:rebuild`. The API key is not
-- here: it lives only in its unpublished event, sealed (see services/integrations/src/integration/api.ts).
CREATE TABLE api_integrations (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  site_name text NOT NULL,
  base_url text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  last_used timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX api_integrations_site_name ON api_integrations (user_id, lower(site_name));
