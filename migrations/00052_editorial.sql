-- +goose Up
-- The editorial audit log: one event per write to a content item (every
-- workflow transition and every backoffice, API, import or plugin write),
-- written in the write's own transaction. Append-only: no update, delete or
-- truncate gets through, whoever asks.
CREATE TABLE editorial_events (
    id          bigserial PRIMARY KEY,
    -- Items are archived, never deleted, so this never cascades.
    item_id     uuid NOT NULL REFERENCES content_items (id),
    item_type   text NOT NULL,
    revision    integer NOT NULL,
    action      text NOT NULL CHECK (action ~ '^[a-z_]{1,40}$'),
    channel     text NOT NULL CHECK (channel IN ('backoffice', 'api', 'import', 'plugin', 'system')),
    -- No foreign key: ON DELETE SET NULL would rewrite history.
    actor_id    uuid,
    ip          inet,
    from_status text,
    to_status   text NOT NULL,
    reason      text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL
);
CREATE INDEX editorial_events_item_idx ON editorial_events (item_id, id DESC);
CREATE INDEX editorial_events_created_idx ON editorial_events (created_at DESC, id DESC);
CREATE INDEX editorial_events_actor_idx ON editorial_events (actor_id, created_at DESC);

-- +goose StatementBegin
CREATE FUNCTION editorial_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'editorial_events is append-only';
END $$;
-- +goose StatementEnd
CREATE TRIGGER editorial_events_no_update BEFORE UPDATE ON editorial_events
    FOR EACH ROW EXECUTE FUNCTION editorial_events_append_only();
CREATE TRIGGER editorial_events_no_delete BEFORE DELETE ON editorial_events
    FOR EACH STATEMENT EXECUTE FUNCTION editorial_events_append_only();
CREATE TRIGGER editorial_events_no_truncate BEFORE TRUNCATE ON editorial_events
    FOR EACH STATEMENT EXECUTE FUNCTION editorial_events_append_only();

-- +goose Down
DROP TABLE editorial_events;
DROP FUNCTION editorial_events_append_only();
