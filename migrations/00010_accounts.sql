-- +goose Up
-- Accounts: sign-up details, lockout state and how the account was created.
--
-- users.metadata holds the sign-up metadata that profiles are auto-created
-- from (the name fallbacks), as a JSON object with these optional keys:
--   first_name, last_name   from the email sign-up form
--   given_name, family_name, picture   from Google's ID token
-- core/profiles reads it: first_name ← first_name | given_name | 'Usuário',
-- last_name ← last_name | family_name, avatar ← avatar_url | picture.
ALTER TABLE users
    ADD COLUMN provider text NOT NULL DEFAULT 'email' CHECK (provider IN ('email', 'google')),
    ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
    -- The referral code typed at sign-up, kept for the referral feature to process.
    ADD COLUMN referral_code text CHECK (referral_code IS NULL OR btrim(referral_code) <> ''),
    ADD COLUMN failed_login_count integer NOT NULL DEFAULT 0 CHECK (failed_login_count >= 0),
    ADD COLUMN locked_until timestamptz;

-- Identities at outside providers (Google), linked to one account each.
CREATE TABLE user_identities (
    provider   text NOT NULL CHECK (provider IN ('google')),
    subject    text NOT NULL,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, subject)
);
CREATE INDEX user_identities_user_id ON user_identities (user_id);

-- A session is one signed-in device; its refresh tokens form one rotation
-- family, so revoking the session ends the whole family.
CREATE TABLE sessions (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_agent   text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz
);
CREATE INDEX sessions_user_id ON sessions (user_id) WHERE revoked_at IS NULL;

-- Access and refresh tokens, stored only as SHA-256 hashes. A refresh token is
-- used once (used_at); presenting a used one again revokes its session.
CREATE TABLE session_tokens (
    token_hash bytea PRIMARY KEY,
    session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('access', 'refresh')),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX session_tokens_session_id ON session_tokens (session_id);

-- Single-use emailed links (confirmation 24 h, password reset 1 h), hashed.
CREATE TABLE email_tokens (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text NOT NULL CHECK (purpose IN ('confirm', 'reset')),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX email_tokens_user_id ON email_tokens (user_id, purpose);

-- Google sign-in attempts in flight: state (hashed), nonce and PKCE verifier,
-- kept in the database so any instance can finish a flow another started.
CREATE TABLE oauth_states (
    state_hash bytea PRIMARY KEY,
    nonce      text NOT NULL,
    verifier   text NOT NULL,
    redirect   text NOT NULL,
    expires_at timestamptz NOT NULL
);

-- Fixed-window rate-limit counters shared by every instance.
CREATE TABLE rate_limit_counters (
    key          text NOT NULL,
    window_start timestamptz NOT NULL,
    window_end   timestamptz NOT NULL,
    hits         integer NOT NULL DEFAULT 1,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_counters_window_end ON rate_limit_counters (window_end);

-- +goose Down
DROP TABLE rate_limit_counters;
DROP TABLE oauth_states;
DROP TABLE email_tokens;
DROP TABLE session_tokens;
DROP TABLE sessions;
DROP TABLE user_identities;
ALTER TABLE users
    DROP COLUMN locked_until,
    DROP COLUMN failed_login_count,
    DROP COLUMN referral_code,
    DROP COLUMN metadata,
    DROP COLUMN provider;
