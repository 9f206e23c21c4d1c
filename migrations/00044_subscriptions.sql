-- +goose Up
-- Subscriber: one row per user.
CREATE TABLE subscribers (
    user_id             uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    subscription_status text NOT NULL CHECK (subscription_status IN ('active', 'trial')),
    subscription_tier   text CHECK (subscription_tier IN ('premium', 'premium_monthly', 'premium_yearly', 'vip')),
    trial_ends_at       timestamptz,
    trial_reminded_at   timestamptz,
    trial_expired_at    timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- What a trial user has used of each limited feature (patients, AI consultations…).
CREATE TABLE trial_usage (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    limit_type text NOT NULL,
    used       integer NOT NULL DEFAULT 0 CHECK (used >= 0),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, limit_type)
);

-- +goose Down
DROP TABLE trial_usage;
DROP TABLE subscribers;
