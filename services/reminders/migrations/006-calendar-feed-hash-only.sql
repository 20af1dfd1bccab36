-- A calendar link is a credential: only its SHA-256 is kept, and the link is shown once, when made.
ALTER TABLE calendar_feeds DROP COLUMN token;
