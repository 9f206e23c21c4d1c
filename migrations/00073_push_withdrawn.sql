-- +goose Up
-- withdrawn: the member read or deleted the notification before its push
-- went out (typically one held until the end of their quiet hours), so the
-- push would only repeat what they have already seen.
ALTER TABLE push_deliveries DROP CONSTRAINT push_deliveries_status;
ALTER TABLE push_deliveries ADD CONSTRAINT push_deliveries_status
    CHECK (status IN ('pending', 'sent', 'failed', 'gone', 'superseded', 'withdrawn'));

-- +goose Down
UPDATE push_deliveries SET status = 'superseded' WHERE status = 'withdrawn';
ALTER TABLE push_deliveries DROP CONSTRAINT push_deliveries_status;
ALTER TABLE push_deliveries ADD CONSTRAINT push_deliveries_status
    CHECK (status IN ('pending', 'sent', 'failed', 'gone', 'superseded'));
