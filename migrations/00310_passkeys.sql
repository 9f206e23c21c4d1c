-- +goose Up
-- Passkeys (WebAuthn discoverable credentials): several per member, each named
-- by the member. The credential (public key, flags, authenticator AAGUID and
-- transports) is kept as the library's JSON; sign_count is the authenticator's
-- last counter, which must grow (a counter that goes back means a cloned key).
CREATE TABLE passkeys (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id bytea NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 16 AND 1023),
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    credential    jsonb NOT NULL,
    sign_count    bigint NOT NULL DEFAULT 0 CHECK (sign_count >= 0),
    created_at    timestamptz NOT NULL,
    last_used_at  timestamptz
);
CREATE INDEX passkeys_user ON passkeys (user_id);

-- A WebAuthn ceremony in flight: the challenge the browser must sign, kept on
-- the server, spent by its first answer (good or bad) and dead after expires_at.
-- user_id is the member adding a passkey; NULL for a sign-in (the passkey says who).
CREATE TABLE webauthn_ceremonies (
    token_hash bytea PRIMARY KEY,
    user_id    uuid REFERENCES users (id) ON DELETE CASCADE,
    purpose    text NOT NULL CHECK (purpose IN ('register', 'login')),
    session    jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL CHECK (expires_at > created_at)
);
CREATE INDEX webauthn_ceremonies_expires ON webauthn_ceremonies (expires_at);

-- +goose Down
DROP TABLE webauthn_ceremonies;
DROP TABLE passkeys;
