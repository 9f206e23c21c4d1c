-- +goose Up
-- Daily check-in: one state row per user.
CREATE TABLE user_daily_checkin (
    user_id              uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    last_checkin         date,
    sequence_count       integer NOT NULL DEFAULT 0 CHECK (sequence_count BETWEEN 0 AND 6),
    total_checkins       integer NOT NULL DEFAULT 0,
    total_checkin_points integer NOT NULL DEFAULT 0,
    last_bonus_at        timestamptz,
    time_zone            text NOT NULL DEFAULT 'America/Sao_Paulo',
    updated_at           timestamptz NOT NULL DEFAULT now()
);

-- One row per user and local day: the primary key is what guarantees a single
-- check-in per day under any concurrency.
CREATE TABLE checkins (
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    local_date   date NOT NULL,
    time_zone    text NOT NULL,
    sequence     integer NOT NULL CHECK (sequence BETWEEN 1 AND 7),
    points       integer NOT NULL,
    completed_streak boolean NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, local_date)
);

-- +goose Down
DROP TABLE checkins;
DROP TABLE user_daily_checkin;
