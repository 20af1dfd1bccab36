-- A check the address guard refused (the target's address is a private one): kept so the monitor can
-- show why it cannot be checked, but never counted as a failure, in a streak or in uptime.
ALTER TABLE check_results ADD COLUMN refused boolean NOT NULL DEFAULT false;
