-- +goose Up
-- Content items of every content type (news, courses, videos, events, posts).
--
-- content_items is the working copy the backoffice edits; content_published is
-- the snapshot readers see. Editing a published item only touches
-- content_items (has_draft turns true), so the public row stays byte-identical
-- until the next publish copies the working copy over it.
--
-- unaccent is a trusted extension (PostgreSQL 13+), so the database owner may
-- create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS unaccent;

-- Portuguese full-text search that ignores accents: "cirurgia", "Cirurgia" and
-- "cirúrgico" all reduce to the stem "cirurg".
CREATE TEXT SEARCH CONFIGURATION vetclube_pt (COPY = portuguese);
ALTER TEXT SEARCH CONFIGURATION vetclube_pt
    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem;

CREATE TABLE content_items (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    type            text NOT NULL CHECK (type ~ '^[a-z][a-z0-9-]{1,39}$'),
    status          text NOT NULL DEFAULT 'rascunho' CHECK (status IN
                        ('rascunho', 'em_revisao', 'aprovado', 'agendado', 'publicado', 'arquivado', 'alteracoes_solicitadas')),
    -- version is the number of the latest revision; every write bumps it, and
    -- a save that names an older version is refused (optimistic concurrency).
    version         integer NOT NULL DEFAULT 1 CHECK (version >= 1),
    slug            text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 120),
    title           text NOT NULL CHECK (btrim(title) <> ''),
    summary         text NOT NULL DEFAULT '',
    fields          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(fields) = 'object'),
    search          tsvector NOT NULL DEFAULT ''::tsvector,
    author_id       uuid REFERENCES users (id) ON DELETE SET NULL,
    -- true while a published item has working-copy changes readers do not see
    has_draft       boolean NOT NULL DEFAULT false,
    idempotency_key text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- first publication; kept across later republishes
    published_at    timestamptz,
    CONSTRAINT content_items_idempotency_key UNIQUE (idempotency_key),
    CONSTRAINT content_items_type_slug UNIQUE (type, slug)
);
CREATE INDEX content_items_type_updated_idx ON content_items (type, updated_at DESC, id DESC);
CREATE INDEX content_items_type_status_idx ON content_items (type, status);
CREATE INDEX content_items_search_idx ON content_items USING gin (search);

-- What readers see. One row per published item; answering a public list or
-- detail needs this table only (plus the reader's engagement rows).
CREATE TABLE content_published (
    item_id          uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    type             text NOT NULL,
    slug             text NOT NULL,
    title            text NOT NULL,
    summary          text NOT NULL,
    fields           jsonb NOT NULL,
    search           tsvector NOT NULL,
    author_id        uuid REFERENCES users (id) ON DELETE SET NULL,
    -- the revision this snapshot was published from
    revision         integer NOT NULL,
    published_at     timestamptz NOT NULL,
    last_published_at timestamptz NOT NULL,
    CONSTRAINT content_published_type_slug UNIQUE (type, slug)
);
CREATE INDEX content_published_type_published_idx ON content_published (type, published_at DESC, item_id DESC);
CREATE INDEX content_published_type_title_idx ON content_published (type, title, item_id);
CREATE INDEX content_published_search_idx ON content_published USING gin (search);
-- jsonb_ops (not jsonb_path_ops) so that filters may use ?| on tags and
-- multi-selects as well as @> on single values.
CREATE INDEX content_published_fields_idx ON content_published USING gin (fields);

-- Every write to an item from any channel appends one revision holding the
-- full snapshot. Revisions are never updated; old ones are pruned only past
-- the retention rule (180 days and the 100 newest kept per item).
CREATE TABLE content_revisions (
    item_id       uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    revision      integer NOT NULL CHECK (revision >= 1),
    action        text NOT NULL CHECK (action IN ('create', 'update', 'transition', 'publish', 'unpublish', 'discard', 'restore')),
    channel       text NOT NULL CHECK (channel IN ('backoffice', 'api', 'import', 'plugin', 'system')),
    author_id     uuid REFERENCES users (id) ON DELETE SET NULL,
    snapshot      jsonb NOT NULL CHECK (jsonb_typeof(snapshot) = 'object'),
    restored_from integer,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, revision)
);
CREATE INDEX content_revisions_created_idx ON content_revisions (created_at);

-- +goose StatementBegin
CREATE FUNCTION content_revisions_no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'content_revisions rows are never updated';
END $$;
-- +goose StatementEnd
CREATE TRIGGER content_revisions_no_update BEFORE UPDATE ON content_revisions
    FOR EACH ROW EXECUTE FUNCTION content_revisions_no_update();

-- +goose Down
DROP TABLE content_revisions;
DROP FUNCTION content_revisions_no_update();
DROP TABLE content_published;
DROP TABLE content_items;
DROP TEXT SEARCH CONFIGURATION vetclube_pt;
DROP EXTENSION IF EXISTS unaccent;
