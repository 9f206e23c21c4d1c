-- +goose Up
-- /register-premium: a sign-up whose confirmation link also signs the member
-- in (and the page continues to the monthly checkout). The request kind
-- confirm_premium mails such a link; its token's purpose is confirm_signin.
ALTER TABLE account_mail_requests DROP CONSTRAINT account_mail_requests_kind_check;
ALTER TABLE account_mail_requests ADD CONSTRAINT account_mail_requests_kind_check
    CHECK (kind IN ('confirm', 'confirm_premium', 'reset', 'registered'));
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check
    CHECK (purpose IN ('confirm', 'confirm_signin', 'reset'));

-- +goose Down
DELETE FROM account_mail_requests WHERE kind = 'confirm_premium';
DELETE FROM email_tokens WHERE purpose = 'confirm_signin';
ALTER TABLE account_mail_requests DROP CONSTRAINT account_mail_requests_kind_check;
ALTER TABLE account_mail_requests ADD CONSTRAINT account_mail_requests_kind_check
    CHECK (kind IN ('confirm', 'reset', 'registered'));
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check
    CHECK (purpose IN ('confirm', 'reset'));
