-- +goose Up
-- Edit locks: who is editing an item right now. A lock lives while its
-- holder's editor sends heartbeats and expires 5 minutes after the last one
-- (the expiry is computed from heartbeat_at, not stored). Another editor may
-- take it over; the token then changes, so the previous holder's next
-- heartbeat or save is refused.
CREATE TABLE content_locks (
    item_id      uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    holder_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token        uuid NOT NULL,
    acquired_at  timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE content_locks;
