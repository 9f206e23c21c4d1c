-- +goose Up
-- Each server instance keeps signed-in principals (user, roles) in memory for
-- a few seconds, keyed by the access token's hash (core/auth). These
-- triggers tell every instance, through NOTIFY on vc_principal, when one must
-- be dropped: "s:<session>" when a session ends or its access token is
-- rotated away, "u:<user>" when the user's roles or subscription change. They
-- fire on the rows themselves, so no code path that changes them can forget.
-- +goose StatementBegin
CREATE FUNCTION vc_notify_principal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record := coalesce(NEW, OLD);
BEGIN
    IF TG_TABLE_NAME = 'sessions' THEN
        PERFORM pg_notify('vc_principal', 's:' || r.id);
    ELSIF TG_TABLE_NAME = 'session_tokens' THEN
        PERFORM pg_notify('vc_principal', 's:' || r.session_id);
    ELSE
        PERFORM pg_notify('vc_principal', 'u:' || r.user_id);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER user_roles_principal AFTER INSERT OR UPDATE OR DELETE ON user_roles
    FOR EACH ROW EXECUTE FUNCTION vc_notify_principal();
CREATE TRIGGER subscribers_principal AFTER INSERT OR UPDATE OR DELETE ON subscribers
    FOR EACH ROW EXECUTE FUNCTION vc_notify_principal();
CREATE TRIGGER sessions_revoked_principal AFTER UPDATE OF revoked_at ON sessions
    FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at) EXECUTE FUNCTION vc_notify_principal();
CREATE TRIGGER sessions_deleted_principal AFTER DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION vc_notify_principal();
CREATE TRIGGER access_tokens_deleted_principal AFTER DELETE ON session_tokens
    FOR EACH ROW WHEN (OLD.kind = 'access') EXECUTE FUNCTION vc_notify_principal();

-- +goose Down
DROP TRIGGER access_tokens_deleted_principal ON session_tokens;
DROP TRIGGER sessions_deleted_principal ON sessions;
DROP TRIGGER sessions_revoked_principal ON sessions;
DROP TRIGGER subscribers_principal ON subscribers;
DROP TRIGGER user_roles_principal ON user_roles;
DROP FUNCTION vc_notify_principal();
