-- The certificate last warned of (ExpiryApproaching): the checker reports again only at a nearer
-- warning or for another certificate.
ALTER TABLE monitor_list ADD COLUMN warned_certificate_expires_at timestamptz;
ALTER TABLE monitor_list ADD COLUMN warned_certificate_days integer;
-- When the certificate a check read ends (https only).
ALTER TABLE check_results ADD COLUMN certificate_expires_at timestamptz;
