-- +goose Up
-- The member's data (LGPD): exports of everything a member has, and account
-- deletions with their 30-day grace. A request row outlives the account it
-- names (user_id becomes NULL when the account is deleted), so the
-- backoffice keeps the history without personal data.
CREATE TABLE lgpd_requests (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id      uuid REFERENCES users (id) ON DELETE SET NULL,
    kind         text NOT NULL CHECK (kind IN ('export', 'deletion')),
    -- export: pendente → processando → pronto | erro | expirado
    -- deletion: agendada → processando → concluida | cancelada | erro
    status       text NOT NULL CHECK (status IN ('pendente', 'processando', 'pronto', 'erro', 'expirado',
                                                   'agendada', 'concluida', 'cancelada')),
    requested_at timestamptz NOT NULL DEFAULT now(),
    -- deletion: the end of the grace, when the account is erased
    scheduled_for timestamptz,
    finished_at  timestamptz,
    -- export: the ZIP in private storage and when its link stops working
    file_key     text NOT NULL DEFAULT '',
    file_size    bigint NOT NULL DEFAULT 0,
    expires_at   timestamptz,
    -- how a deletion was confirmed ('senha' or 'codigo'), or cancelled ('login', 'membro')
    detail       text NOT NULL DEFAULT '',
    error        text NOT NULL DEFAULT '',
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lgpd_requests_user_idx ON lgpd_requests (user_id, kind, requested_at DESC);
CREATE INDEX lgpd_requests_list_idx ON lgpd_requests (requested_at DESC);
-- At most one deletion waiting for its grace to end per member.
CREATE UNIQUE INDEX lgpd_requests_one_pending_deletion ON lgpd_requests (user_id)
    WHERE kind = 'deletion' AND status IN ('agendada', 'processando');

-- What a finished deletion did, per area: counts only, never who.
CREATE TABLE lgpd_deletion_reports (
    request_id  uuid PRIMARY KEY REFERENCES lgpd_requests (id) ON DELETE CASCADE,
    steps       jsonb NOT NULL DEFAULT '[]',
    finished_at timestamptz NOT NULL DEFAULT now()
);

-- The e-mailed code that confirms a deletion for members without a password
-- (or who prefer it): 6 digits, 15 minutes, 5 tries.
CREATE TABLE lgpd_deletion_codes (
    user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL,
    expires_at timestamptz NOT NULL,
    failures   int NOT NULL DEFAULT 0 CHECK (failures BETWEEN 0 AND 5)
);

-- The VetCoins ledger stays append-only, with one exception: a deleted
-- member's entries are kept for the accounts but detached from the person
-- (user_id NULL, key and metadata replaced), amount, kind and date unchanged.
ALTER TABLE points_ledger ALTER COLUMN user_id DROP NOT NULL;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION points_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND current_setting('vetclube.anonymise_ledger', true) = 'on'
       AND OLD.user_id IS NOT NULL AND NEW.user_id IS NULL
       AND NEW.id = OLD.id AND NEW.amount = OLD.amount AND NEW.kind = OLD.kind
       AND NEW.created_at = OLD.created_at AND NEW.idempotency_key = 'anonimizado:' || OLD.id
       AND NEW.metadata = '{}'::jsonb THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'points_ledger is append-only';
END $$;
-- +goose StatementEnd

-- The editorial history stays append-only too, except that a deleted
-- member's events lose who did them (actor and address), nothing else.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION editorial_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_LEVEL = 'ROW' AND current_setting('vetclube.anonymise_actor', true) = 'on'
       AND NEW.actor_id IS NULL AND NEW.ip IS NULL
       AND (to_jsonb(NEW) - 'actor_id' - 'ip') = (to_jsonb(OLD) - 'actor_id' - 'ip') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'editorial_events is append-only';
END $$;
-- +goose StatementEnd

-- Revisions are never updated, except that a deleted member's revisions
-- lose their author (the account's ON DELETE SET NULL) inside the deletion.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION content_revisions_no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('vetclube.anonymise_actor', true) = 'on' AND NEW.author_id IS NULL
       AND (to_jsonb(NEW) - 'author_id') = (to_jsonb(OLD) - 'author_id') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'content_revisions rows are never updated';
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION content_revisions_no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'content_revisions rows are never updated';
END $$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION editorial_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'editorial_events is append-only';
END $$;
-- +goose StatementEnd
DROP TABLE lgpd_deletion_codes;
DROP TABLE lgpd_deletion_reports;
DROP TABLE lgpd_requests;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION points_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'points_ledger is append-only';
END $$;
-- +goose StatementEnd
DELETE FROM points_ledger WHERE user_id IS NULL;
ALTER TABLE points_ledger ALTER COLUMN user_id SET NOT NULL;
