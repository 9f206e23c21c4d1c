-- +goose Up
-- What each member wants to be told (core/notifications). A member without a
-- row gets every default: everything on, quiet hours 22:00–07:00 in
-- America/Sao_Paulo. quiet_hours_start = quiet_hours_end means no quiet hours.
CREATE TABLE notification_preferences (
    user_id             uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    push_enabled        boolean NOT NULL DEFAULT true,
    connections_enabled boolean NOT NULL DEFAULT true,
    comments_enabled    boolean NOT NULL DEFAULT true,
    likes_enabled       boolean NOT NULL DEFAULT true,
    challenges_enabled  boolean NOT NULL DEFAULT true,
    courses_enabled     boolean NOT NULL DEFAULT true,
    community_enabled   boolean NOT NULL DEFAULT true,
    marketing_enabled   boolean NOT NULL DEFAULT true,
    quiet_hours_start   time NOT NULL DEFAULT '22:00',
    quiet_hours_end     time NOT NULL DEFAULT '07:00',
    time_zone           text NOT NULL DEFAULT 'America/Sao_Paulo',
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT notification_preferences_zone_len CHECK (char_length(time_zone) BETWEEN 1 AND 64)
);

-- Grouping: an unread notification with a group_key absorbs later notices
-- with the same key. The partial unique index is what makes two concurrent
-- likes fold into one row (INSERT … ON CONFLICT) instead of racing to two.
-- group_actor_ids holds the distinct actors so a repeated like by the same
-- person does not count twice; group_count is how many notices folded in.
ALTER TABLE notifications
    ADD COLUMN group_count     integer NOT NULL DEFAULT 1,
    ADD COLUMN group_actor_ids uuid[] NOT NULL DEFAULT '{}',
    ADD CONSTRAINT notifications_group_count_positive CHECK (group_count >= 1);
CREATE UNIQUE INDEX notifications_unread_group_idx ON notifications (user_id, group_key)
    WHERE NOT is_read AND group_key IS NOT NULL;
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE NOT is_read;

-- +goose Down
DROP INDEX notifications_unread_idx;
DROP INDEX notifications_unread_group_idx;
ALTER TABLE notifications DROP COLUMN group_actor_ids, DROP COLUMN group_count;
DROP TABLE notification_preferences;
