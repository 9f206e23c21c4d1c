-- +goose Up
-- Notifications a tool (plugin) scheduled for one of its members at a future
-- moment (host.ScheduleNotification: a vaccine's next dose, say). One row per
-- plugin, member and key: scheduling the key again moves the moment and
-- bumps version (a new delivery key), cancelling deletes the pending row. A
-- periodic sweep claims due rows (FOR UPDATE SKIP LOCKED, then a short
-- lease) and delivers each once through the notifications service; delivered rows are kept
-- (delivered_at) until rescheduled or the member's account goes.
CREATE TABLE tool_scheduled_notifications (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    plugin_id    text NOT NULL CHECK (plugin_id ~ '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key          text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 200),
    due_at       timestamptz NOT NULL,
    title        text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 120),
    body         text NOT NULL DEFAULT '' CHECK (char_length(body) <= 500),
    link         text NOT NULL DEFAULT '' CHECK (link = '' OR (link LIKE '/%' AND link NOT LIKE '//%')),
    version      integer NOT NULL DEFAULT 1 CHECK (version > 0),
    delivered_at timestamptz,
    -- claimed_until: a sweep is delivering this row until then (a lease, so
    -- a sweep that died leaves it to the next one after it).
    claimed_until timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (plugin_id, user_id, key)
);
CREATE INDEX tool_scheduled_notifications_due ON tool_scheduled_notifications (due_at)
    WHERE delivered_at IS NULL;
CREATE INDEX tool_scheduled_notifications_user ON tool_scheduled_notifications (user_id, plugin_id);

-- +goose Down
DROP TABLE tool_scheduled_notifications;
