-- +goose Up
-- The rewards shop: what VetCoins buy. A reward's stock NULL is unlimited;
-- per_member_limit NULL is no limit. config holds what the kind delivers:
-- coupon {percent_off, duration_months}, course {course_id},
-- certificate_frame {frame}, voucher {} (codes in reward_vouchers).
CREATE TABLE rewards (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    title            text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 120),
    description      text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
    image_url        text NOT NULL DEFAULT '' CHECK (char_length(image_url) <= 500),
    kind             text NOT NULL CHECK (kind IN ('coupon', 'course', 'certificate_frame', 'voucher')),
    cost             integer NOT NULL CHECK (cost BETWEEN 1 AND 1000000),
    stock            integer CHECK (stock IS NULL OR stock >= 0),
    per_member_limit integer CHECK (per_member_limit IS NULL OR per_member_limit >= 1),
    premium_only     boolean NOT NULL DEFAULT false,
    active           boolean NOT NULL DEFAULT true,
    instructions     text NOT NULL DEFAULT '' CHECK (char_length(instructions) <= 2000),
    config           jsonb NOT NULL DEFAULT '{}',
    position         integer NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rewards_active_idx ON rewards (active, position, created_at);

-- A redemption. status pending: debited, delivery under way (an external
-- one, Stripe); delivered; refunded: the VetCoins came back (a failed
-- delivery or a staff refund) and the stock was restored.
CREATE TABLE reward_redemptions (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id         uuid REFERENCES users (id) ON DELETE CASCADE,
    reward_id       uuid NOT NULL REFERENCES rewards (id) ON DELETE RESTRICT,
    idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 100),
    kind            text NOT NULL,
    title           text NOT NULL,
    cost            integer NOT NULL CHECK (cost > 0),
    status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'refunded')),
    code            text NOT NULL DEFAULT '',
    instructions    text NOT NULL DEFAULT '',
    details         jsonb NOT NULL DEFAULT '{}',
    refund_reason   text NOT NULL DEFAULT '',
    refunded_by     uuid REFERENCES users (id) ON DELETE SET NULL,
    refunded_at     timestamptz,
    delivered_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT reward_redemptions_key UNIQUE (user_id, idempotency_key)
);
CREATE INDEX reward_redemptions_user_idx ON reward_redemptions (user_id, created_at DESC);
CREATE INDEX reward_redemptions_reward_idx ON reward_redemptions (reward_id, created_at DESC);

-- Partner voucher codes, loaded as a list; one code per redemption.
CREATE TABLE reward_vouchers (
    id            bigserial PRIMARY KEY,
    reward_id     uuid NOT NULL REFERENCES rewards (id) ON DELETE CASCADE,
    code          text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 100),
    redemption_id uuid REFERENCES reward_redemptions (id) ON DELETE SET NULL,
    assigned_at   timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT reward_vouchers_code UNIQUE (reward_id, code)
);
CREATE INDEX reward_vouchers_free_idx ON reward_vouchers (reward_id, id) WHERE redemption_id IS NULL;

-- Certificate frames a member unlocked: their course certificates may use them.
CREATE TABLE reward_certificate_frames (
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    frame         text NOT NULL CHECK (frame IN ('ouro', 'prata', 'esmeralda')),
    redemption_id uuid REFERENCES reward_redemptions (id) ON DELETE SET NULL,
    selected      boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, frame)
);

-- What staff did in the shop (catalogue changes, voucher uploads, refunds).
CREATE TABLE reward_audit (
    id         bigserial PRIMARY KEY,
    actor_id   uuid REFERENCES users (id) ON DELETE SET NULL,
    action     text NOT NULL,
    reward_id  uuid,
    target_id  text NOT NULL DEFAULT '',
    details    jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reward_audit_created_idx ON reward_audit (created_at DESC);

-- A refunded redemption is a ledger entry of its own (a positive amount
-- that takes back points_spent), never a deletion.
ALTER TABLE points_ledger DROP CONSTRAINT points_ledger_kind_check;
ALTER TABLE points_ledger ADD CONSTRAINT points_ledger_kind_check CHECK (kind IN
    ('checkin', 'checkin_bonus', 'course', 'challenge', 'post', 'referral', 'referral_reversal', 'plugin', 'redemption', 'redemption_refund'));

-- +goose Down
ALTER TABLE points_ledger DROP CONSTRAINT points_ledger_kind_check;
ALTER TABLE points_ledger ADD CONSTRAINT points_ledger_kind_check CHECK (kind IN
    ('checkin', 'checkin_bonus', 'course', 'challenge', 'post', 'referral', 'referral_reversal', 'plugin', 'redemption'));
DROP TABLE reward_audit;
DROP TABLE reward_certificate_frames;
DROP TABLE reward_vouchers;
DROP TABLE reward_redemptions;
DROP TABLE rewards;
