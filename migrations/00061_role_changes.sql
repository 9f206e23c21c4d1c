-- +goose Up
-- Every grant and revocation of a backoffice role (editor, revisor,
-- super_admin). A trigger on user_roles writes it, so no path (the backoffice,
-- `vetclube admin grant`, the dev seed) can change access without a trace. The
-- acting administrator is the transaction-local setting vetclube.actor_id;
-- NULL means the command line or the seed. Owned by core/roles.
CREATE TABLE role_changes (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       text NOT NULL,
    change     text NOT NULL CHECK (change IN ('granted', 'revoked')),
    actor_id   uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX role_changes_by_user ON role_changes (user_id, id DESC);

-- +goose StatementBegin
CREATE FUNCTION record_role_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    actor uuid := NULLIF(current_setting('vetclube.actor_id', true), '')::uuid;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO role_changes (user_id, role, change, actor_id) VALUES (NEW.user_id, NEW.role, 'granted', actor);
    -- A deleted account takes its roles and their history with it.
    ELSIF EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
        INSERT INTO role_changes (user_id, role, change, actor_id) VALUES (OLD.user_id, OLD.role, 'revoked', actor);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER user_roles_recorded AFTER INSERT OR DELETE ON user_roles
    FOR EACH ROW EXECUTE FUNCTION record_role_change();

-- +goose Down
DROP TRIGGER user_roles_recorded ON user_roles;
DROP FUNCTION record_role_change();
DROP TABLE role_changes;
