-- +goose Up
-- Failed sign-ins for addresses without an account, counted and locked like
-- users.failed_login_count / locked_until, so the lockout answer does not tell
-- whether an account exists.
CREATE TABLE login_lockouts (
    email        text PRIMARY KEY CHECK (length(email) <= 254),
    failed_count integer NOT NULL DEFAULT 0 CHECK (failed_count >= 0),
    locked_until timestamptz,
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_lockouts_updated_at ON login_lockouts (updated_at);

-- Server-side secrets generated once per database, so every instance sharing
-- it derives the same values (the CSRF token of a session is an HMAC under
-- the 'csrf' secret).
CREATE TABLE server_secrets (
    name       text PRIMARY KEY,
    secret     bytea NOT NULL CHECK (length(secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE server_secrets;
DROP TABLE login_lockouts;
