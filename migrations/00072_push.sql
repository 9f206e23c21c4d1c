-- +goose Up
-- Web Push (core/push). A subscription is one browser on one device; the
-- endpoint is the browser's, so signing in as someone else on the same
-- browser moves the row to that user. A 404/410 from the push service
-- deactivates it for good (is_active = false, deactivated_reason).
CREATE TABLE push_subscriptions (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id            uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint           text NOT NULL UNIQUE,
    p256dh             text NOT NULL,
    auth               text NOT NULL,
    user_agent         text NOT NULL DEFAULT '',
    is_active          boolean NOT NULL DEFAULT true,
    deactivated_reason text NOT NULL DEFAULT '',
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT push_subscriptions_endpoint_len CHECK (char_length(endpoint) BETWEEN 1 AND 2048),
    CONSTRAINT push_subscriptions_keys_len CHECK (char_length(p256dh) BETWEEN 80 AND 100 AND char_length(auth) BETWEEN 16 AND 30),
    CONSTRAINT push_subscriptions_user_agent_len CHECK (char_length(user_agent) <= 512)
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id) WHERE is_active;

-- One push message (what to show) and its deliveries, one per device. The
-- unique (message_id, subscription_id) is the idempotency key: a fan-out
-- re-run after a worker restart finds the rows already sent and skips them.
CREATE TABLE push_messages (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind          text NOT NULL,
    title         text NOT NULL,
    body          text NOT NULL,
    url           text NOT NULL DEFAULT '/',
    tag           text NOT NULL DEFAULT '',
    urgency       text NOT NULL DEFAULT 'normal',
    ttl_seconds   integer NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    dispatched_at timestamptz,
    CONSTRAINT push_messages_urgency CHECK (urgency IN ('very-low', 'low', 'normal', 'high')),
    CONSTRAINT push_messages_ttl CHECK (ttl_seconds BETWEEN 0 AND 2419200)
);
CREATE INDEX push_messages_undispatched_idx ON push_messages (created_at) WHERE dispatched_at IS NULL;

-- status: pending (not sent yet, or waiting for a retry at next_attempt_at),
-- sent, failed (gave up after the last retry), gone (404/410: the
-- subscription is dead), superseded (a newer push for the same notification
-- replaced it before it went out). claimed_until keeps two workers from
-- sending one row at once; a worker that dies mid-send releases it when the
-- claim expires.
CREATE TABLE push_deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id      uuid NOT NULL REFERENCES push_messages (id) ON DELETE CASCADE,
    subscription_id uuid NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    notification_id uuid REFERENCES notifications (id) ON DELETE SET NULL,
    status          text NOT NULL DEFAULT 'pending',
    attempts        integer NOT NULL DEFAULT 0,
    last_error      text NOT NULL DEFAULT '',
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    claimed_until   timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    CONSTRAINT push_deliveries_once UNIQUE (message_id, subscription_id),
    CONSTRAINT push_deliveries_status CHECK (status IN ('pending', 'sent', 'failed', 'gone', 'superseded'))
);
CREATE INDEX push_deliveries_due_idx ON push_deliveries (message_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX push_deliveries_user_idx ON push_deliveries (user_id, created_at DESC);
CREATE INDEX push_deliveries_notification_idx ON push_deliveries (notification_id) WHERE status = 'pending';

-- +goose Down
DROP TABLE push_deliveries;
DROP TABLE push_messages;
DROP TABLE push_subscriptions;
