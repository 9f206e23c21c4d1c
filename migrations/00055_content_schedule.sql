-- +goose Up
-- The moment a scheduled item is to be published (stored in UTC; shown in
-- America/Sao_Paulo). It exists only while the item is agendado: any move
-- out of that state (publishing, an edit, a request for changes) clears it,
-- so the agenda and the catch-up after downtime never see a stale moment.
ALTER TABLE content_items ADD COLUMN publish_at timestamptz;
CREATE INDEX content_items_publish_at_idx ON content_items (publish_at) WHERE publish_at IS NOT NULL;

-- +goose StatementBegin
CREATE FUNCTION content_items_clear_publish_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status <> 'agendado' THEN
        NEW.publish_at := NULL;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER content_items_clear_publish_at BEFORE INSERT OR UPDATE ON content_items
    FOR EACH ROW EXECUTE FUNCTION content_items_clear_publish_at();

-- +goose Down
DROP TRIGGER content_items_clear_publish_at ON content_items;
DROP FUNCTION content_items_clear_publish_at();
ALTER TABLE content_items DROP COLUMN publish_at;
