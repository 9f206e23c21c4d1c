-- +goose Up
-- Two-step verification: a TOTP secret per account (confirmed once the member
-- typed a code), hashed one-time recovery codes, the short-lived challenge
-- between the password (or Google) and the code, the devices a member chose
-- to remember for 30 days, and when a session passed the second step.
CREATE TABLE user_totp (
    user_id      uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret       text NOT NULL CHECK (length(secret) BETWEEN 16 AND 128),
    confirmed_at timestamptz,
    -- The last 30-second step accepted: a code of that step or an earlier one is refused (replay).
    last_step    bigint NOT NULL DEFAULT 0 CHECK (last_step >= 0),
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE recovery_codes (
    user_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash bytea NOT NULL,
    used_at   timestamptz,
    PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE mfa_challenges (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL CHECK (expires_at > created_at),
    failures   int NOT NULL DEFAULT 0 CHECK (failures >= 0),
    spent_at   timestamptz
);
CREATE INDEX mfa_challenges_expires ON mfa_challenges (expires_at);

CREATE TABLE trusted_devices (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL CHECK (expires_at > created_at)
);
CREATE INDEX trusted_devices_user ON trusted_devices (user_id);

ALTER TABLE sessions ADD COLUMN mfa_at timestamptz;
-- A session losing or gaining its verified state drops its cached principal everywhere.
CREATE TRIGGER sessions_mfa_principal AFTER UPDATE OF mfa_at ON sessions
    FOR EACH ROW WHEN (OLD.mfa_at IS DISTINCT FROM NEW.mfa_at) EXECUTE FUNCTION vc_notify_principal();

-- +goose Down
DROP TRIGGER sessions_mfa_principal ON sessions;
ALTER TABLE sessions DROP COLUMN mfa_at;
DROP TABLE trusted_devices;
DROP TABLE mfa_challenges;
DROP TABLE recovery_codes;
DROP TABLE user_totp;
