-- +goose Up
-- Plugin SQL sandbox. Each plugin's SQL runs on its own
-- connections, logged in as its own role (vc_plugin_<id>), never on the
-- core's. The core creates those roles with random passwords kept here, so
-- that every core instance sharing this database logs in with the same one.
-- Only the core (the table's owner) can read it: nothing is granted.
CREATE TABLE plugin_db_credentials (
    plugin_id  text PRIMARY KEY CHECK (plugin_id ~ '^[a-z][a-z0-9-]{1,39}$'),
    password   text NOT NULL CHECK (length(password) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON plugin_db_credentials FROM PUBLIC;

-- No role but the owner may create objects in the core's schema, so a
-- plugin cannot plant a table or function there that the core would find on
-- its search_path. (PostgreSQL 15 already defaults to this; older clusters
-- and databases upgraded from them do not.)
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- +goose Down
GRANT CREATE ON SCHEMA public TO PUBLIC;
DROP TABLE plugin_db_credentials;
