-- +goose Up
-- Where a notification leads and what its actions need: link is the
-- in-app URL a click opens (and a push's target), data carries ids an
-- action acts on (e.g. the pending connection request for Aceitar /
-- Recusar), group_key folds notifications of one kind about one target
-- ("Ana e mais 3 pessoas curtiram seu post").
ALTER TABLE notifications
    ADD COLUMN link      text NOT NULL DEFAULT '',
    ADD COLUMN data      jsonb NOT NULL DEFAULT '{}'::jsonb,
    ADD COLUMN group_key text;
ALTER TABLE notifications
    ADD CONSTRAINT notifications_data_object CHECK (jsonb_typeof(data) = 'object');

-- +goose Down
ALTER TABLE notifications DROP COLUMN group_key, DROP COLUMN data, DROP COLUMN link;
