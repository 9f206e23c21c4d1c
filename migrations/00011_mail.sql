-- +goose Up
-- The development mailbox: outgoing email lands here when no SMTP_URL is set.
CREATE TABLE mail_messages (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    recipient  text NOT NULL,
    subject    text NOT NULL,
    text_body  text NOT NULL,
    html_body  text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE mail_messages;
