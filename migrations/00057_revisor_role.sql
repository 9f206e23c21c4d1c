-- +goose Up
-- The revisor reviews content: approves, requests changes, schedules,
-- publishes, unpublishes and archives (core/editorial). Granted and revoked
-- like editor.
ALTER TABLE user_roles DROP CONSTRAINT user_roles_role_check;
ALTER TABLE user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('super_admin', 'editor', 'revisor'));

-- +goose Down
DELETE FROM user_roles WHERE role = 'revisor';
ALTER TABLE user_roles DROP CONSTRAINT user_roles_role_check;
ALTER TABLE user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('super_admin', 'editor'));
