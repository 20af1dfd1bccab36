-- Each project's latest deployment (from the projects service's events), so an incident that opens
-- soon after one names it: "HTTP 503 after deploy 1.4.0".
CREATE TABLE recent_deploys (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  version text,
  environment text NOT NULL,
  at timestamptz NOT NULL
);
