-- +goose Up
-- Changing the e-mail while signed in: the new address takes effect only once
-- its owner opens the link sent to it (confirm_hash, 24 h); the old address
-- then gets a notice whose undo link (undo_hash, 7 days) puts it back. One
-- pending change per member: a new request replaces it.
CREATE TABLE email_changes (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    old_email    text NOT NULL,
    new_email    text NOT NULL,
    confirm_hash bytea NOT NULL UNIQUE,
    undo_hash    bytea UNIQUE,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL CHECK (expires_at > created_at),
    confirmed_at timestamptz,
    undo_until   timestamptz,
    undone_at    timestamptz
);
CREATE UNIQUE INDEX email_changes_pending ON email_changes (user_id) WHERE confirmed_at IS NULL;
CREATE INDEX email_changes_user ON email_changes (user_id);

-- +goose Down
DROP TABLE email_changes;
