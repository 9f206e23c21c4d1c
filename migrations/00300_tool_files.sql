-- +goose Up
-- Files members upload to a tool (an exam's PDF, a photo for the AI): private
-- to the member and the tool, stored outside the public uploads. Images are
-- kept as re-encoded pixels (no EXIF); PDFs as sent, after their checks.
CREATE TABLE tool_files (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    plugin_id    text NOT NULL CHECK (plugin_id ~ '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('image', 'pdf')),
    content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
    name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
    size         bigint NOT NULL CHECK (size > 0),
    storage_key  text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tool_files_owner ON tool_files (user_id, plugin_id, created_at DESC);

-- +goose Down
DROP TABLE tool_files;
