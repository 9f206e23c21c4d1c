-- +goose Up
-- In-app notifications. idempotency_key lets a retried
-- workflow activity notify exactly once.
CREATE TABLE notifications (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id            uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type               text NOT NULL,
    title              text NOT NULL,
    message            text NOT NULL,
    is_read            boolean NOT NULL DEFAULT false,
    related_user_id    uuid REFERENCES users (id) ON DELETE SET NULL,
    related_post_id    uuid,
    related_comment_id uuid,
    idempotency_key    text UNIQUE,
    created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_id_idx ON notifications (user_id, created_at DESC);

-- +goose Down
DROP TABLE notifications;
