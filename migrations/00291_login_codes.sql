-- +goose Up
-- 'Entrar com código': one active 6-digit code per account (the newest request
-- replaces it), valid 10 minutes, spent by its first good use; 5 wrong tries
-- delete it. The e-mail's one-click link is a separate random token.
CREATE TABLE login_codes (
    user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL,
    link_hash  bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL CHECK (expires_at > created_at),
    failures   int NOT NULL DEFAULT 0 CHECK (failures BETWEEN 0 AND 5)
);
CREATE INDEX login_codes_expires ON login_codes (expires_at);

ALTER TABLE account_mail_requests DROP CONSTRAINT account_mail_requests_kind_check;
ALTER TABLE account_mail_requests ADD CONSTRAINT account_mail_requests_kind_check
    CHECK (kind IN ('confirm', 'confirm_premium', 'reset', 'registered', 'login_code'));

-- +goose Down
ALTER TABLE account_mail_requests DROP CONSTRAINT account_mail_requests_kind_check;
ALTER TABLE account_mail_requests ADD CONSTRAINT account_mail_requests_kind_check
    CHECK (kind IN ('confirm', 'confirm_premium', 'reset', 'registered'));
DROP TABLE login_codes;
