-- +goose Up
-- Connections between members (core/connections). One row per unordered
-- pair: a pending request (requester asked receiver) or an accepted
-- connection. Rejecting, cancelling or removing deletes the row, so "none"
-- is the absence of a row and a later request starts afresh.
CREATE TABLE connections (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    requester_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    receiver_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status       text NOT NULL DEFAULT 'pending',
    created_at   timestamptz NOT NULL DEFAULT now(),
    accepted_at  timestamptz,

    CONSTRAINT connections_status_known CHECK (status IN ('pending', 'accepted')),
    CONSTRAINT connections_not_self CHECK (requester_id <> receiver_id),
    CONSTRAINT connections_accepted_at CHECK ((status = 'accepted') = (accepted_at IS NOT NULL))
);
-- At most one row per pair whoever asked first: two people asking each other
-- at the same instant end with one row (the second request accepts the first).
CREATE UNIQUE INDEX connections_pair ON connections (LEAST(requester_id, receiver_id), GREATEST(requester_id, receiver_id));
CREATE INDEX connections_requester ON connections (requester_id, status);
CREATE INDEX connections_receiver ON connections (receiver_id, status);

-- A member who blocked another: no requests either way, no connection.
CREATE TABLE user_blocks (
    blocker_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (blocker_id, blocked_id),
    CONSTRAINT user_blocks_not_self CHECK (blocker_id <> blocked_id)
);
CREATE INDEX user_blocks_blocked ON user_blocks (blocked_id);

-- +goose Down
DROP TABLE user_blocks;
DROP TABLE connections;
