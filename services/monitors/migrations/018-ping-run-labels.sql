-- What ran, when a service reported the run rather than its cron ping: a scheduled GitHub workflow's
-- file name ("nightly-backup.yml"), which a failed run's incident names.
ALTER TABLE ping_runs ADD COLUMN label text;
