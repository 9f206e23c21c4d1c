-- +goose Up
-- The VetCoins ledger is append-only: every credit and debit is one row, and a
-- unique idempotency key makes every award safe to retry.
CREATE TABLE points_ledger (
    id              bigserial PRIMARY KEY,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    amount          integer NOT NULL CHECK (amount <> 0),
    kind            text NOT NULL CHECK (kind IN ('checkin', 'checkin_bonus', 'course', 'challenge', 'post', 'referral', 'plugin', 'redemption')),
    idempotency_key text NOT NULL CHECK (idempotency_key <> ''),
    metadata        jsonb NOT NULL DEFAULT '{}',
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT points_ledger_idempotency_key UNIQUE (idempotency_key),
    -- Spending is the only debit; every other kind is a credit.
    CONSTRAINT points_ledger_sign CHECK ((kind = 'redemption') = (amount < 0))
);
CREATE INDEX points_ledger_user_id_idx ON points_ledger (user_id, id DESC);

-- +goose StatementBegin
CREATE FUNCTION points_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'points_ledger is append-only';
END $$;
-- +goose StatementEnd
CREATE TRIGGER points_ledger_no_update BEFORE UPDATE ON points_ledger
    FOR EACH ROW EXECUTE FUNCTION points_ledger_append_only();
CREATE TRIGGER points_ledger_no_delete BEFORE DELETE ON points_ledger
    FOR EACH STATEMENT WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION points_ledger_append_only();

-- Per-user totals, maintained in the same transaction as the
-- ledger row. other_points holds kinds the total's formula does not name
-- (referral, plugin awards) so that total_points always equals the ledger sum.
CREATE TABLE user_total_points (
    user_id          uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    challenge_points integer NOT NULL DEFAULT 0,
    course_points    integer NOT NULL DEFAULT 0,
    post_points      integer NOT NULL DEFAULT 0,
    checkin_points   integer NOT NULL DEFAULT 0,
    other_points     integer NOT NULL DEFAULT 0,
    points_spent     integer NOT NULL DEFAULT 0 CHECK (points_spent >= 0),
    total_points     integer GENERATED ALWAYS AS
        (challenge_points + course_points + post_points + checkin_points + other_points - points_spent) STORED,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT user_total_points_not_negative CHECK
        (challenge_points + course_points + post_points + checkin_points + other_points - points_spent >= 0)
);

-- +goose Down
DROP TABLE user_total_points;
DROP TABLE points_ledger;
DROP FUNCTION points_ledger_append_only();
