-- +goose Up
-- When the streak reminder ("Não perca sua sequência de N dias!") is due:
-- 20:00 on the day after the last check-in, in the zone that check-in was
-- made in. A check-in sets it in the same statement that records the day,
-- one sweep for the whole deployment sends what is due and clears it, so a
-- running streak costs no workflow of its own.
ALTER TABLE user_daily_checkin ADD COLUMN remind_at timestamptz;

-- Streaks running when the sweep replaced the per-user reminder loops: the
-- loops' last reminder and the sweep's share one notification key, so the
-- overlap sends nothing twice.
UPDATE user_daily_checkin s
SET remind_at = ((c.local_date + 1) + time '20:00') AT TIME ZONE c.time_zone
FROM checkins c
WHERE c.user_id = s.user_id AND c.local_date = s.last_checkin AND s.sequence_count > 0;

CREATE INDEX user_daily_checkin_remind_at ON user_daily_checkin (remind_at) WHERE remind_at IS NOT NULL;

-- +goose Down
DROP INDEX user_daily_checkin_remind_at;
ALTER TABLE user_daily_checkin DROP COLUMN remind_at;
