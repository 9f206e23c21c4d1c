-- +goose Up
-- Per-user live events (points changes, notifications). Rows let a reconnecting
-- stream resume after its Last-Event-ID; NOTIFY wakes every instance's stream.
CREATE TABLE user_events (
    id         bigserial PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type       text NOT NULL,
    data       jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_events_user_id_idx ON user_events (user_id, id);
CREATE INDEX user_events_created_at_idx ON user_events (created_at);

-- +goose Down
DROP TABLE user_events;
