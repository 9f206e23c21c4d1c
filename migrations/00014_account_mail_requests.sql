-- +goose Up
-- Emails that sign-up, resend-confirmation and forgot-password asked for,
-- before anyone looked at whether the address has an account. The request
-- only inserts a row here, the same row for any address, so neither its
-- answer nor its duration says whether the account exists; the auth service's
-- background loop resolves each row (token, email) and deletes it.
CREATE TABLE account_mail_requests (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- confirm: a confirmation link if the account exists and is unconfirmed;
    -- reset: a password-reset link if the account exists;
    -- registered: tell the owner someone tried to sign up with the address.
    kind       text NOT NULL CHECK (kind IN ('confirm', 'reset', 'registered')),
    email      text NOT NULL CHECK (length(email) <= 254),
    created_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE account_mail_requests;
