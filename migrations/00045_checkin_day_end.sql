-- +goose Up
-- When the user's last check-in day ends, measured in the zone that check-in
-- was made in. The next check-in must come after it, so changing the profile
-- time zone to one where it is already "tomorrow" does not open a second
-- credit on the same real day: a zone change applies from the next day.
ALTER TABLE user_daily_checkin ADD COLUMN last_day_ends_at timestamptz;

UPDATE user_daily_checkin s
SET last_day_ends_at = ((c.local_date + 1)::timestamp AT TIME ZONE c.time_zone)
FROM checkins c
WHERE c.user_id = s.user_id AND c.local_date = s.last_checkin;

-- +goose Down
ALTER TABLE user_daily_checkin DROP COLUMN last_day_ends_at;
