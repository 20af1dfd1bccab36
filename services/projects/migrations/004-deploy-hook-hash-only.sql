-- A deploy webhook's secret is a credential: only its SHA-256 is kept, and the URL is shown once, when made.
ALTER TABLE deploy_hooks DROP COLUMN token;
