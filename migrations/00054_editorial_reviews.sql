-- +goose Up
-- Review work: the reviewer assigned to an item, and review comments, each
-- tied to the revision it was written about.
CREATE TABLE editorial_assignments (
    item_id     uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    reviewer_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assigned_by uuid REFERENCES users (id) ON DELETE SET NULL,
    assigned_at timestamptz NOT NULL
);
CREATE INDEX editorial_assignments_reviewer_idx ON editorial_assignments (reviewer_id);

CREATE TABLE editorial_comments (
    id         bigserial PRIMARY KEY,
    item_id    uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    revision   integer NOT NULL,
    author_id  uuid REFERENCES users (id) ON DELETE SET NULL,
    body       text NOT NULL CHECK (btrim(body) <> '' AND length(body) <= 5000),
    created_at timestamptz NOT NULL
);
CREATE INDEX editorial_comments_item_idx ON editorial_comments (item_id, id);

-- +goose Down
DROP TABLE editorial_comments;
DROP TABLE editorial_assignments;
