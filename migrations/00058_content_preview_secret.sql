-- +goose Up
-- The key preview links are signed with. It is generated once by the first
-- instance that needs it (INSERT … ON CONFLICT DO NOTHING, then read back), so
-- every instance on the database signs and verifies with the same key.
CREATE TABLE content_preview_secret (
    id         boolean PRIMARY KEY DEFAULT true CHECK (id),
    secret     bytea NOT NULL CHECK (octet_length(secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE content_preview_secret;
