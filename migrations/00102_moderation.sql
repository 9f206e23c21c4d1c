-- +goose Up
-- Reports and moderation of community posts and comments (core/moderation).
--
-- A target (post or comment) gets a row in moderation_targets with its first
-- report or its first moderator decision; a target without a row is
-- published. Its state moves publicado → oculto (three distinct reporters
-- since the last decision, or a moderator at once) → removido, or back to
-- publicado (restaurado); a moderator may also remove at once. removido is
-- final. Every change is appended to moderation_actions, which refuses
-- updates and deletes.

-- The moderator role: hides, restores and removes reported content.
ALTER TABLE user_roles DROP CONSTRAINT user_roles_role_check;
ALTER TABLE user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('super_admin', 'editor', 'revisor', 'moderador'));

CREATE TABLE moderation_targets (
    target_type  text NOT NULL CHECK (target_type IN ('post', 'comment')),
    target_id    uuid NOT NULL,
    state        text NOT NULL DEFAULT 'publicado' CHECK (state IN ('publicado', 'oculto', 'removido')),
    -- who wrote the target and where it lives, copied when the row is made so
    -- the queue still shows a removed target
    author_id    uuid REFERENCES users (id) ON DELETE SET NULL,
    item_id      uuid,
    excerpt      text NOT NULL DEFAULT '' CHECK (char_length(excerpt) <= 500),
    -- every report ever made, and those made since the last decision (a
    -- restored target needs three new reporters to be hidden again)
    report_count integer NOT NULL DEFAULT 0 CHECK (report_count >= 0),
    open_reports integer NOT NULL DEFAULT 0 CHECK (open_reports >= 0 AND open_reports <= report_count),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (target_type, target_id)
);
CREATE INDEX moderation_targets_queue_idx ON moderation_targets (state, updated_at DESC);
CREATE INDEX moderation_targets_author_idx ON moderation_targets (author_id, state);

-- Only the moderation graph's edges: anything else is refused whichever
-- path writes the row.
-- +goose StatementBegin
CREATE FUNCTION moderation_targets_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.state <> OLD.state AND NOT (
        (OLD.state = 'publicado' AND NEW.state IN ('oculto', 'removido')) OR
        (OLD.state = 'oculto' AND NEW.state IN ('publicado', 'removido'))) THEN
        RAISE EXCEPTION 'moderation: % → % is not a moderation transition', OLD.state, NEW.state
            USING ERRCODE = 'check_violation', CONSTRAINT = 'moderation_targets_transition';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER moderation_targets_transition BEFORE UPDATE OF state ON moderation_targets
    FOR EACH ROW EXECUTE FUNCTION moderation_targets_transition();

-- One report per reporter per target.
CREATE TABLE moderation_reports (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    target_type text NOT NULL,
    target_id   uuid NOT NULL,
    -- a deleted account keeps its report (anonymous) so counts stay true
    reporter_id uuid REFERENCES users (id) ON DELETE SET NULL,
    reason      text NOT NULL CHECK (btrim(reason) <> '' AND char_length(reason) <= 1000),
    created_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (target_type, target_id) REFERENCES moderation_targets (target_type, target_id),
    CONSTRAINT moderation_reports_once UNIQUE (target_type, target_id, reporter_id)
);
CREATE INDEX moderation_reports_reporter_idx ON moderation_reports (reporter_id);

-- The append-only log of every state change.
CREATE TABLE moderation_actions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    target_type text NOT NULL,
    target_id   uuid NOT NULL,
    action      text NOT NULL CHECK (action IN ('hide', 'restore', 'remove')),
    from_state  text NOT NULL,
    to_state    text NOT NULL,
    -- NULL: the system (the report threshold) or a deleted account
    actor_id    uuid REFERENCES users (id) ON DELETE SET NULL,
    reason      text NOT NULL DEFAULT '' CHECK (char_length(reason) <= 1000),
    created_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (target_type, target_id) REFERENCES moderation_targets (target_type, target_id)
);
CREATE INDEX moderation_actions_target_idx ON moderation_actions (target_type, target_id, id);

-- +goose StatementBegin
CREATE FUNCTION moderation_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The one change allowed: a deleted account's id becoming NULL.
    IF TG_OP = 'UPDATE' AND NEW.actor_id IS NULL AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'moderation_actions is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
-- +goose StatementEnd
CREATE TRIGGER moderation_actions_append_only BEFORE UPDATE OR DELETE ON moderation_actions
    FOR EACH ROW EXECUTE FUNCTION moderation_actions_append_only();

-- +goose Down
DROP TABLE moderation_actions;
DROP FUNCTION moderation_actions_append_only();
DROP TABLE moderation_reports;
DROP TABLE moderation_targets;
DROP FUNCTION moderation_targets_transition();
DELETE FROM user_roles WHERE role = 'moderador';
ALTER TABLE user_roles DROP CONSTRAINT user_roles_role_check;
ALTER TABLE user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('super_admin', 'editor', 'revisor'));
