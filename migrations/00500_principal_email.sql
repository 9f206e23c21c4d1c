-- +goose Up
-- A cached principal carries the account's email: changing it (or undoing a
-- change) drops that user's cached principals on every instance, as role,
-- subscription and session changes already do.
-- +goose StatementBegin
CREATE FUNCTION vc_notify_principal_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('vc_principal', 'u:' || NEW.id);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER users_email_principal AFTER UPDATE OF email ON users
    FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION vc_notify_principal_user();

-- +goose Down
DROP TRIGGER users_email_principal ON users;
DROP FUNCTION vc_notify_principal_user();
