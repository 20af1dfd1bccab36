-- Alert deliveries are kept 7 days, as raw check results are (run-checks' prune): found by age.
CREATE INDEX alert_deliveries_by_age ON alert_deliveries (created_at);
