-- +goose Up
-- Community posts (core/community). A post is a content item of type
-- "posts" (plugins/comunidade), published as it is created; this adds its
-- pictures and the indexes the feed reads through.

-- Pictures uploaded for posts. A row is created by the upload, unattached
-- (item_id NULL), and attached when its uploader creates or edits a post
-- with it; an unattached row older than a day is pruned with its files.
CREATE TABLE post_media (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    uploader_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    item_id        uuid REFERENCES content_items (id) ON DELETE CASCADE,
    media_type     text NOT NULL DEFAULT 'image' CHECK (media_type IN ('image')),
    -- storage keys (core/storage) of the resized picture and its thumbnail
    storage_path   text NOT NULL CHECK (storage_path <> '' AND char_length(storage_path) <= 512),
    thumbnail_path text CHECK (thumbnail_path IS NULL OR (thumbnail_path <> '' AND char_length(thumbnail_path) <= 512)),
    file_name      text NOT NULL CHECK (btrim(file_name) <> '' AND char_length(file_name) <= 255),
    file_size      bigint NOT NULL CHECK (file_size > 0),
    mime_type      text NOT NULL CHECK (mime_type IN ('image/jpeg', 'image/png')),
    width          integer CHECK (width > 0),
    height         integer CHECK (height > 0),
    created_at     timestamptz NOT NULL DEFAULT now()
);
-- A post's pictures, in upload order (the feed aggregates them per post).
CREATE INDEX post_media_item_idx ON post_media (item_id, created_at, id) WHERE item_id IS NOT NULL;
-- Unattached uploads, for attaching and pruning.
CREATE INDEX post_media_unattached_idx ON post_media (uploader_id, created_at) WHERE item_id IS NULL;
CREATE INDEX post_media_unattached_age_idx ON post_media (created_at) WHERE item_id IS NULL;

-- One person's posts newest first (profile page, the "Minhas conexões" tab);
-- the whole feed reads content_published_type_published_idx.
CREATE INDEX content_published_posts_author_idx ON content_published (author_id, published_at DESC, item_id DESC)
    WHERE type = 'posts';

-- +goose Down
DROP INDEX content_published_posts_author_idx;
DROP TABLE post_media;
