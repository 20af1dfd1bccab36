-- Reminders are emailed only to an address its owner proved is theirs (identity's EmailVerified).
ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
