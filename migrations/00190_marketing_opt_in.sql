-- +goose Up
-- Marketing notifications are opt-in (LGPD: consent is a clear, affirmative
-- act, never a pre-ticked box). A member who never saved preferences has no
-- row and now reads marketing off (core/notifications); a new row starts off.
-- Rows already stored keep their value: a stored false is a member's own
-- opt-out, and a stored true cannot be told apart from an explicit opt-in, so
-- this migration changes no member's stored choice.
ALTER TABLE notification_preferences ALTER COLUMN marketing_enabled SET DEFAULT false;

-- +goose Down
ALTER TABLE notification_preferences ALTER COLUMN marketing_enabled SET DEFAULT true;
