-- +goose Up
-- A binary's description (its Describe answer: manifest and hooks, as
-- deterministic protobuf), kept by checksum so an on-demand plugin's
-- routes, content types and menus are known at start without running it.
ALTER TABLE plugin_installations ADD COLUMN describe bytea;

-- +goose Down
ALTER TABLE plugin_installations DROP COLUMN describe;
