-- +goose Up
-- The media library (core/media): one row per file staff upload through tus.
--
-- Lifecycle: enviando (tus upload in progress) → processando (video being
-- transcoded) → pronto | erro. Images and PDFs go from enviando to pronto as
-- soon as their bytes are checked. The original is kept under original_key
-- in every state after the upload so a failed video can be retried.
--
-- HLS output lives under hls_prefix, which carries a random token: poster and
-- thumbnail URLs are public, and the token keeps a premium video's stream
-- unguessable from them. Other packages read the library through the
-- media_public view only.

CREATE TABLE media_assets (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind              text NOT NULL CHECK (kind IN ('video', 'image', 'document')),
    state             text NOT NULL DEFAULT 'enviando'
                      CHECK (state IN ('enviando', 'processando', 'pronto', 'erro')),
    upload_id         text NOT NULL,
    original_name     text NOT NULL CHECK (original_name <> ''),
    mime_type         text NOT NULL DEFAULT '',
    original_key      text NOT NULL DEFAULT '',
    size_bytes        bigint NOT NULL CHECK (size_bytes >= 0),
    duration_seconds  double precision NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0),
    width             integer NOT NULL DEFAULT 0 CHECK (width >= 0),
    height            integer NOT NULL DEFAULT 0 CHECK (height >= 0),
    has_audio         boolean NOT NULL DEFAULT false,
    -- Percent per rendition, e.g. {"360p": 100, "720p": 42}.
    progress          jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(progress) = 'object'),
    progress_percent  integer NOT NULL DEFAULT 0 CHECK (progress_percent BETWEEN 0 AND 100),
    -- Finished renditions: [{"name","width","height","bandwidth_bps","playlist"}].
    renditions        jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(renditions) = 'array'),
    done_renditions   text[] NOT NULL DEFAULT '{}',
    poster_key        text NOT NULL DEFAULT '',
    thumbnail_keys    text[] NOT NULL DEFAULT '{}',
    hls_prefix        text NOT NULL,
    -- Subtitle tracks: [{"language","name","file"}], file relative to hls_prefix.
    subtitles         jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(subtitles) = 'array'),
    master_key        text NOT NULL DEFAULT '',
    attempt           integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    error             text NOT NULL DEFAULT '',
    uploaded_by       uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT media_assets_error_state CHECK ((state = 'erro') = (error <> '')),
    CONSTRAINT media_assets_ready_video CHECK (state <> 'pronto' OR kind <> 'video' OR master_key <> ''),
    CONSTRAINT media_assets_ready_original CHECK (state NOT IN ('processando', 'pronto') OR original_key <> '')
);
CREATE UNIQUE INDEX media_assets_upload_id_key ON media_assets (upload_id);
CREATE INDEX media_assets_newest_idx ON media_assets (created_at DESC, id DESC);
CREATE INDEX media_assets_state_idx ON media_assets (state, kind);

-- media_overall_percent is a video's overall processing percent from its
-- per-rendition progress: the sum divided by the renditions it will get,
-- counted from the picture's short side as the transcoder chooses them
-- (360p always; one rung at the source's own size when it is between 360
-- and 720 lines; 720p and 1080p when the source has that many lines; or
-- more when more were reported), kept below 100 until the video is pronto.
-- +goose StatementBegin
CREATE FUNCTION media_overall_percent(progress jsonb, short_side integer) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
    SELECT LEAST(99,
        (SELECT COALESCE(SUM(LEAST(100, GREATEST(0, value::numeric))), 0) FROM jsonb_each_text(progress))::integer
        / GREATEST(1 + (CASE WHEN short_side > 360 AND short_side < 720 THEN 1 ELSE 0 END)
                     + (CASE WHEN short_side >= 720 THEN 1 ELSE 0 END) + (CASE WHEN short_side >= 1080 THEN 1 ELSE 0 END),
                   (SELECT count(*) FROM jsonb_object_keys(progress))::integer))
$$;
-- +goose StatementEnd

-- The read API for other packages. URLs are relative to the /uploads/ prefix
-- the core serves storage under; empty when the file does not exist yet.
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
       -- an image's or PDF's own file (video originals are never served)
       CASE WHEN kind <> 'video' AND state = 'pronto' THEN '/uploads/' || original_key ELSE '' END AS file_url
FROM media_assets;

-- +goose Down
DROP VIEW media_public;
DROP FUNCTION media_overall_percent(jsonb, integer);
DROP TABLE media_assets;
