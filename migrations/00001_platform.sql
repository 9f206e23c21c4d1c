-- +goose Up
-- Accounts are the identity root; everything a user owns references users(id).
CREATE TABLE users (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email              text NOT NULL,
    password_hash      text,
    email_confirmed_at timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_email_normalised CHECK (email = lower(btrim(email)) AND email <> '')
);
CREATE UNIQUE INDEX users_email_key ON users (email);

-- Extra roles beyond the implicit "user" of every account.
CREATE TABLE user_roles (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('super_admin', 'editor')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, role)
);

-- +goose Down
DROP TABLE user_roles;
DROP TABLE users;
