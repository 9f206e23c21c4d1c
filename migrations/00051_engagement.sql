-- +goose Up
-- Engagement on any content item: favorites, like/dislike, views, progress
-- and enrolments, with per-item counters.
--
-- Counters change in the same transaction as the row they count, and only
-- when that row actually changed, so they always equal the row counts.

CREATE TABLE engagement_counters (
    item_id    uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    favorites  bigint NOT NULL DEFAULT 0 CHECK (favorites >= 0),
    likes      bigint NOT NULL DEFAULT 0 CHECK (likes >= 0),
    dislikes   bigint NOT NULL DEFAULT 0 CHECK (dislikes >= 0),
    views      bigint NOT NULL DEFAULT 0 CHECK (views >= 0),
    enrolments bigint NOT NULL DEFAULT 0 CHECK (enrolments >= 0)
);

-- Every item gets its counters row when it is created, so counter updates are
-- plain UPDATEs of an existing row (an upsert would have to insert negative
-- deltas on a missing row).
-- +goose StatementBegin
CREATE FUNCTION engagement_counters_create() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO engagement_counters (item_id) VALUES (NEW.id);
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER content_items_engagement_counters AFTER INSERT ON content_items
    FOR EACH ROW EXECUTE FUNCTION engagement_counters_create();

CREATE TABLE engagement_favorites (
    item_id    uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX engagement_favorites_user_idx ON engagement_favorites (user_id, created_at DESC);

-- Like and dislike are one row per (item, user), so they exclude each other.
CREATE TABLE engagement_reactions (
    item_id    uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reaction   text NOT NULL CHECK (reaction IN ('like', 'dislike')),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);

-- The last counted view per (item, user): a view counts again only once
-- 24 hours have passed since counted_at.
CREATE TABLE engagement_views (
    item_id    uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    counted_at timestamptz NOT NULL,
    PRIMARY KEY (item_id, user_id)
);

-- watched holds the merged, sorted [start, end) second ranges actually played,
-- as a JSON array of two-number arrays.
CREATE TABLE engagement_progress (
    item_id          uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    percent          numeric(5, 2) NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 100),
    position_seconds double precision NOT NULL DEFAULT 0 CHECK (position_seconds >= 0),
    duration_seconds double precision NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0),
    watched          jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(watched) = 'array'),
    completed_at     timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX engagement_progress_user_idx ON engagement_progress (user_id, updated_at DESC);

CREATE TABLE engagement_enrolments (
    item_id     uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    enrolled_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX engagement_enrolments_user_idx ON engagement_enrolments (user_id, enrolled_at DESC);

-- +goose Down
DROP TABLE engagement_enrolments;
DROP TABLE engagement_progress;
DROP TABLE engagement_views;
DROP TABLE engagement_reactions;
DROP TABLE engagement_favorites;
DROP TRIGGER content_items_engagement_counters ON content_items;
DROP FUNCTION engagement_counters_create();
DROP TABLE engagement_counters;
