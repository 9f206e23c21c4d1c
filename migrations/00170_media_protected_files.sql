-- +goose Up
-- Protected media files: a video's HLS stream (playlists, segments,
-- subtitles) and documents (course materials) live in the private store and
-- are served only through signed, short-lived addresses (core/media
-- StreamPath) that the features owning them hand out to members with
-- access. Images, posters and thumbnails stay public.
--
-- files_private says an asset's protected files are in the private store:
-- true for every asset from now on; the assets stored before are moved by
-- core/media (MoveProtectedFiles) when the server starts, which sets it.
ALTER TABLE media_assets ADD COLUMN files_private boolean NOT NULL DEFAULT false;
ALTER TABLE media_assets ALTER COLUMN files_private SET DEFAULT true;
UPDATE media_assets SET files_private = true WHERE kind = 'image';

-- The read API no longer names a stream or a document by a public address:
-- stream_key and document_key are keys of the private store, which the
-- owning feature signs for a reader after its access check.
DROP VIEW media_public;
CREATE VIEW media_public AS
SELECT id,
       kind,
       state,
       duration_seconds,
       width,
       height,
       CASE WHEN state = 'pronto' AND master_key <> '' THEN master_key ELSE '' END AS stream_key,
       CASE WHEN poster_key <> '' THEN '/uploads/' || poster_key
            WHEN kind = 'image' AND state = 'pronto' THEN '/uploads/' || original_key
            ELSE '' END AS poster_url,
       ARRAY(SELECT '/uploads/' || k FROM unnest(thumbnail_keys) AS k) AS thumbnail_urls,
       -- an image's own file (public)
       CASE WHEN kind = 'image' AND state = 'pronto' THEN '/uploads/' || original_key ELSE '' END AS file_url,
       -- a document's own file (private: signed for a reader)
       CASE WHEN kind = 'document' AND state = 'pronto' THEN original_key ELSE '' END AS document_key
FROM media_assets;

-- +goose Down
DROP VIEW media_public;
CREATE VIEW media_public AS
SELECT id,
       kind,
       state,
       duration_seconds,
       width,
       height,
       CASE WHEN state = 'pronto' AND master_key <> '' THEN '/uploads/' || master_key ELSE '' END AS hls_url,
       CASE WHEN poster_key <> '' THEN '/uploads/' || poster_key
            WHEN kind = 'image' AND state = 'pronto' THEN '/uploads/' || original_key
            ELSE '' END AS poster_url,
       ARRAY(SELECT '/uploads/' || k FROM unnest(thumbnail_keys) AS k) AS thumbnail_urls,
       CASE WHEN kind <> 'video' AND state = 'pronto' THEN '/uploads/' || original_key ELSE '' END AS file_url
FROM media_assets;
ALTER TABLE media_assets DROP COLUMN files_private;
