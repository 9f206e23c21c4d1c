-- +goose Up
-- The media library's audit log (core/media): who deleted an asset and who
-- cancelled a video's processing, kept after the asset itself is gone, so
-- the file's name, kind and uploader are copied into the entry.
CREATE TABLE media_events (
    id             bigserial PRIMARY KEY,
    asset_id       uuid NOT NULL,
    action         text NOT NULL CHECK (action IN ('excluido', 'processamento_cancelado')),
    actor_id       uuid REFERENCES users (id) ON DELETE SET NULL,
    kind           text NOT NULL,
    original_name  text NOT NULL,
    uploaded_by    uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_events_asset_idx ON media_events (asset_id, created_at);

-- +goose Down
DROP TABLE media_events;
