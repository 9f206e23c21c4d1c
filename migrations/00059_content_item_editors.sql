-- +goose Up
-- Co-editors of an item: besides its author, the editors an item is shared
-- with may see and edit it in the backoffice (an editor sees only their own
-- and shared items; revisors and super admins see every item).
CREATE TABLE content_item_editors (
    item_id  uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_by uuid REFERENCES users (id) ON DELETE SET NULL,
    added_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX content_item_editors_user ON content_item_editors (user_id, item_id);

-- +goose Down
DROP TABLE content_item_editors;
