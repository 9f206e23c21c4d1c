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

-- No index on remind_at: every daily check-in changes it, and an index would
-- make each of those updates a non-HOT one (a new entry in every index of
-- the table). The sweep reads the table every few minutes instead; a scan of
-- a million narrow rows is tens of milliseconds.

-- +goose Down
ALTER TABLE user_daily_checkin DROP COLUMN remind_at;
