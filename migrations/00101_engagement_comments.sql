-- +goose Up
-- Comments on any content item (core/engagement): one level of replies, like
-- and dislike per comment, and the per-item comment count.
--
-- Counts are kept by triggers, so they follow every way a row can go: an
-- author's delete, the cascade that removes a comment's replies or reactions,
-- a deleted account. A trigger moves a count only when a row was actually
-- inserted, deleted or changed, so a count always equals its rows.

ALTER TABLE engagement_counters ADD COLUMN comments bigint NOT NULL DEFAULT 0 CHECK (comments >= 0);

CREATE TABLE engagement_comments (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    item_id         uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    parent_id       uuid,
    -- true for a top-level comment; only those may be replied to
    is_top          boolean NOT NULL GENERATED ALWAYS AS (parent_id IS NULL) STORED,
    -- always true: the foreign key below then only accepts a parent whose
    -- is_top is true (a reply to a reply has no matching row)
    parent_is_top   boolean NOT NULL DEFAULT true CHECK (parent_is_top),
    -- a deleted account leaves its comments under 'Usuário VetClube' so the
    -- replies of others keep their context
    user_id         uuid REFERENCES users (id) ON DELETE SET NULL,
    content         text NOT NULL CHECK (btrim(content, E' \t\r\n') <> '' AND char_length(content) <= 5000),
    is_edited       boolean NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    likes_count     bigint NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
    dislikes_count  bigint NOT NULL DEFAULT 0 CHECK (dislikes_count >= 0),
    -- the author's Idempotency-Key: a retried create finds the first row
    idempotency_key text CHECK (idempotency_key IS NULL OR char_length(idempotency_key) BETWEEN 1 AND 200),
    CONSTRAINT engagement_comments_one_level UNIQUE (id, item_id, is_top),
    -- a reply's parent is a top-level comment of the same item; deleting the
    -- parent deletes its replies
    CONSTRAINT engagement_comments_parent FOREIGN KEY (parent_id, item_id, parent_is_top)
        REFERENCES engagement_comments (id, item_id, is_top) ON DELETE CASCADE,
    CONSTRAINT engagement_comments_idempotency UNIQUE (user_id, idempotency_key)
);
-- an item's whole thread in one ordered scan (the list reads top level and
-- replies together)
CREATE INDEX engagement_comments_item_idx ON engagement_comments (item_id, created_at, id);
CREATE INDEX engagement_comments_parent_idx ON engagement_comments (parent_id, created_at, id) WHERE parent_id IS NOT NULL;
CREATE INDEX engagement_comments_user_idx ON engagement_comments (user_id, created_at DESC);

-- Like and dislike are one row per (comment, user), so they exclude each other.
CREATE TABLE engagement_comment_reactions (
    comment_id uuid NOT NULL REFERENCES engagement_comments (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    like_type  text NOT NULL CHECK (like_type IN ('like', 'dislike')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (comment_id, user_id)
);
CREATE INDEX engagement_comment_reactions_user_idx ON engagement_comment_reactions (user_id);

-- +goose StatementBegin
CREATE FUNCTION engagement_comments_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE engagement_counters SET comments = comments + 1 WHERE item_id = NEW.item_id;
    ELSE
        -- the item itself may be going (cascade): then there is no row to move
        UPDATE engagement_counters SET comments = comments - 1 WHERE item_id = OLD.item_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER engagement_comments_count AFTER INSERT OR DELETE ON engagement_comments
    FOR EACH ROW EXECUTE FUNCTION engagement_comments_count();

-- +goose StatementBegin
CREATE FUNCTION engagement_comment_reactions_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    dl bigint := 0;
    dd bigint := 0;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        IF OLD.like_type = 'like' THEN dl := dl - 1; ELSE dd := dd - 1; END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        IF NEW.like_type = 'like' THEN dl := dl + 1; ELSE dd := dd + 1; END IF;
    END IF;
    IF dl <> 0 OR dd <> 0 THEN
        UPDATE engagement_comments SET likes_count = likes_count + dl, dislikes_count = dislikes_count + dd
        WHERE id = coalesce(NEW.comment_id, OLD.comment_id);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER engagement_comment_reactions_count AFTER INSERT OR UPDATE OF like_type OR DELETE ON engagement_comment_reactions
    FOR EACH ROW EXECUTE FUNCTION engagement_comment_reactions_count();

-- +goose Down
DROP TABLE engagement_comment_reactions;
DROP FUNCTION engagement_comment_reactions_count();
DROP TABLE engagement_comments;
DROP FUNCTION engagement_comments_count();
ALTER TABLE engagement_counters DROP COLUMN comments;
