-- +goose Up
-- Plugin platform. Every row is owned by one plugin id; plugins
-- reach these tables only through the host API, never directly.

-- Binaries the host has loaded: which checksum, which version, when first
-- seen. The checksum a binary must match is recorded beside it at build or
-- install time (<id>.sha256); this table is the audit trail of what ran.
CREATE TABLE plugin_installations (
    plugin_id     text NOT NULL CHECK (plugin_id ~ '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'),
    sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    version       text NOT NULL,
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plugin_id, sha256)
);

-- Per-plugin key-value store (Mattermost-style). expires_at NULL never
-- expires; an expired row reads as absent and is purged lazily.
CREATE TABLE plugin_kv (
    plugin_id  text NOT NULL,
    key        text NOT NULL CHECK (key <> '' AND length(key) <= 512),
    value      bytea NOT NULL,
    expires_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plugin_id, key)
);
CREATE INDEX plugin_kv_expires_idx ON plugin_kv (expires_at) WHERE expires_at IS NOT NULL;

-- Bookkeeping of each plugin's own schema migrations (schema plugin_<id>).
CREATE TABLE plugin_migrations (
    plugin_id  text NOT NULL,
    version    integer NOT NULL CHECK (version > 0),
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plugin_id, version)
);

-- +goose Down
DROP TABLE plugin_migrations;
DROP TABLE plugin_kv;
DROP TABLE plugin_installations;
