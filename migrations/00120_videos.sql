-- +goose Up
-- Exclusive videos (the videos plugin's types, core/videos).
--
-- The reading model: one typed row per published video and video category,
-- written from each public snapshot (content_published) by a trigger in the
-- publishing transaction, so the list reads columns, never JSON. An
-- unpublished item keeps its row with published = false. Likes, views,
-- favorites and watched ranges are core/engagement's tables; completion
-- (marked, unmarked, or automatic at 90 % watched) is video_completions.

CREATE TABLE video_categories (
    item_id       uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    name          text NOT NULL,
    is_active     boolean NOT NULL DEFAULT true,
    display_order integer NOT NULL DEFAULT 0,
    published     boolean NOT NULL DEFAULT true,
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE video_listings (
    item_id          uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    slug             text NOT NULL,
    title            text NOT NULL,
    description      text NOT NULL DEFAULT '',
    thumbnail        text NOT NULL DEFAULT '',
    category_id      uuid,
    duration_seconds integer NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0),
    difficulty       text NOT NULL DEFAULT '',
    instructor       text NOT NULL DEFAULT '',
    tags             text[] NOT NULL DEFAULT '{}',
    video_source     text NOT NULL CHECK (video_source IN ('youtube', 'vimeo', 'stream', 'upload')),
    youtube_url      text NOT NULL DEFAULT '',
    vimeo_url        text NOT NULL DEFAULT '',
    stream_url       text NOT NULL DEFAULT '',
    video_asset      uuid,
    search           tsvector NOT NULL DEFAULT ''::tsvector,
    published        boolean NOT NULL DEFAULT true,
    published_at     timestamptz NOT NULL,
    revision         integer NOT NULL,
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX video_listings_newest_idx ON video_listings (published_at DESC, item_id DESC) WHERE published;
CREATE INDEX video_listings_category_idx ON video_listings (category_id, published_at DESC, item_id DESC) WHERE published;
CREATE INDEX video_listings_search_idx ON video_listings USING gin (search);
CREATE INDEX video_listings_slug_idx ON video_listings (slug);

-- A video a reader finished: marked by hand or watched (at least 90 % of its
-- seconds actually played, core/engagement's rule). Unmarking deletes the
-- row, which clears completed_at.
CREATE TABLE video_completions (
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    video_id     uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    how          text NOT NULL CHECK (how IN ('marked', 'watched')),
    completed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, video_id)
);
CREATE INDEX video_completions_video_idx ON video_completions (video_id);

-- video_search recomputes the search vector of the videos in ids: title
-- first, then category, instructor and tags, then the description.
-- +goose StatementBegin
CREATE FUNCTION video_search(ids uuid[]) RETURNS void LANGUAGE sql AS $$
    UPDATE video_listings v SET search =
        setweight(to_tsvector('vetclube_pt', v.title), 'A')
        || setweight(to_tsvector('vetclube_pt', coalesce((SELECT name FROM video_categories WHERE item_id = v.category_id AND published), '')
            || ' ' || v.instructor || ' ' || array_to_string(v.tags, ' ')), 'B')
        || setweight(to_tsvector('vetclube_pt', v.description), 'C')
    WHERE v.item_id = ANY (ids)
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION video_listings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    f   jsonb;
    typ text;
    id  uuid;
BEGIN
    IF TG_OP = 'DELETE' THEN
        typ := OLD.type;
        id := OLD.item_id;
    ELSE
        typ := NEW.type;
        id := NEW.item_id;
    END IF;
    IF typ NOT IN ('videos', 'videos-categorias') THEN
        RETURN NULL;
    END IF;

    IF TG_OP = 'DELETE' THEN
        IF typ = 'videos' THEN
            UPDATE video_listings SET published = false, updated_at = now() WHERE item_id = id;
        ELSE
            UPDATE video_categories SET published = false, updated_at = now() WHERE item_id = id;
            PERFORM video_search(ARRAY(SELECT item_id FROM video_listings WHERE category_id = id));
        END IF;
        RETURN NULL;
    END IF;

    f := NEW.fields;
    IF typ = 'videos' THEN
        INSERT INTO video_listings AS l (item_id, slug, title, description, thumbnail, category_id, duration_seconds,
                difficulty, instructor, tags, video_source, youtube_url, vimeo_url, stream_url, video_asset, published,
                published_at, revision, updated_at)
            VALUES (id, NEW.slug, NEW.title, coalesce(f->>'description', ''), coalesce(f->>'thumbnail', ''),
                nullif(f->>'category', '')::uuid, coalesce((f->>'duration_seconds')::numeric::integer, 0),
                coalesce(f->>'difficulty', ''), coalesce(f->>'instructor', ''),
                coalesce(ARRAY(SELECT jsonb_array_elements_text(f->'tags')), '{}'),
                coalesce(nullif(f->>'video_source', ''), 'upload'), coalesce(f->>'youtube_url', ''),
                coalesce(f->>'vimeo_url', ''), coalesce(f->>'stream_url', ''), nullif(f->>'video_asset', '')::uuid,
                true, NEW.published_at, NEW.revision, now())
            ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title,
                description = EXCLUDED.description, thumbnail = EXCLUDED.thumbnail, category_id = EXCLUDED.category_id,
                duration_seconds = EXCLUDED.duration_seconds, difficulty = EXCLUDED.difficulty,
                instructor = EXCLUDED.instructor, tags = EXCLUDED.tags, video_source = EXCLUDED.video_source,
                youtube_url = EXCLUDED.youtube_url, vimeo_url = EXCLUDED.vimeo_url, stream_url = EXCLUDED.stream_url,
                video_asset = EXCLUDED.video_asset, published = true, published_at = EXCLUDED.published_at,
                revision = EXCLUDED.revision, updated_at = now();
        PERFORM video_search(ARRAY[id]);
    ELSE
        INSERT INTO video_categories AS k (item_id, name, is_active, display_order, published, updated_at)
            VALUES (id, NEW.title, coalesce((f->>'is_active')::boolean, true),
                coalesce((f->>'display_order')::numeric::integer, 0), true, now())
            ON CONFLICT (item_id) DO UPDATE SET name = EXCLUDED.name, is_active = EXCLUDED.is_active,
                display_order = EXCLUDED.display_order, published = true, updated_at = now();
        PERFORM video_search(ARRAY(SELECT item_id FROM video_listings WHERE category_id = id));
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER content_published_video_listings AFTER INSERT OR UPDATE OR DELETE ON content_published
    FOR EACH ROW EXECUTE FUNCTION video_listings_sync();

-- +goose Down
DROP TRIGGER content_published_video_listings ON content_published;
DROP FUNCTION video_listings_sync();
DROP FUNCTION video_search(uuid[]);
DROP TABLE video_completions;
DROP TABLE video_listings;
DROP TABLE video_categories;
