-- +goose Up
-- Durable work a check-in triggers (the streak reminder loop, the 7-day
-- bonus), written in the check-in's own transaction and delivered to the
-- workflow engine by a relay after the commit. A row is deleted once its
-- start is acknowledged; the engine's workflow ids make a repeated delivery
-- (a relay that died between the start and the delete) harmless.
CREATE TABLE checkin_outbox (
    id              bigserial PRIMARY KEY,
    kind            text NOT NULL CHECK (kind IN ('streak_reminder', 'streak_bonus')),
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    streak_date     date,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'streak_bonus') = (streak_date IS NOT NULL))
);
CREATE INDEX checkin_outbox_due ON checkin_outbox (next_attempt_at, id);

-- +goose Down
DROP TABLE checkin_outbox;
