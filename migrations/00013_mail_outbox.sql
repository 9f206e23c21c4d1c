-- +goose Up
-- Outgoing email waiting for delivery. A request only inserts a row here; a
-- worker loop (core/mail Queue) delivers it, so no request waits on SMTP and
-- a request's duration does not tell whether an email was sent. Rows are
-- claimed with FOR UPDATE SKIP LOCKED, so several instances deliver each
-- message once.
CREATE TABLE mail_outbox (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    recipient       text NOT NULL,
    subject         text NOT NULL,
    text_body       text NOT NULL,
    html_body       text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    -- Set when delivery is given up after the last attempt.
    failed_at       timestamptz,
    last_error      text
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;

-- +goose Down
DROP TABLE mail_outbox;
