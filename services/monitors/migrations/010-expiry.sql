-- What a check reads the end of is a certificate (http) or a domain's registration (domain monitors):
-- the columns say so (ExpiryApproaching).
ALTER TABLE monitor_list RENAME COLUMN warned_certificate_expires_at TO warned_expires_at;
ALTER TABLE monitor_list RENAME COLUMN warned_certificate_days TO warned_days;
ALTER TABLE check_results RENAME COLUMN certificate_expires_at TO expires_at;
