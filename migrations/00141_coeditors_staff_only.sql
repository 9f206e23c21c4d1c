-- +goose Up
-- Only the editorial team (editor, revisor, super_admin) may co-edit an item;
-- shares made before that rule with anyone else are dropped.
DELETE FROM content_item_editors e
WHERE NOT EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = e.user_id AND r.role IN ('editor', 'revisor', 'super_admin'));

-- +goose Down
SELECT 1;
