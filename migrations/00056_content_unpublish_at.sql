-- +goose Up
-- The moment a published (or scheduled) item is to be taken offline. Any
-- unpublish or archive clears it (core/content does, in the same UPDATE).
ALTER TABLE content_items ADD COLUMN unpublish_at timestamptz;
CREATE INDEX content_items_unpublish_at_idx ON content_items (unpublish_at) WHERE unpublish_at IS NOT NULL;

-- +goose Down
ALTER TABLE content_items DROP COLUMN unpublish_at;
