-- +goose Up
-- "Indique e ganhe" (core/referrals): each member's referral code, the
-- clicks on it (one per browser session and code), the devices seen per
-- member (a first-party id kept by the PWA), every referral with its
-- anti-fraud verdict and state, its timeline (the audit of reviews too), the
-- rewards granted and reversed, and the program's settings.
CREATE TABLE referral_codes (
    user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    code       text NOT NULL UNIQUE CHECK (code ~ '^[A-HJ-NP-Z2-9]{8}$'),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE referral_clicks (
    id         bigserial PRIMARY KEY,
    code       text NOT NULL REFERENCES referral_codes (code) ON DELETE CASCADE,
    session_id text NOT NULL CHECK (session_id ~ '^[A-Za-z0-9_-]{8,64}$'),
    device_id  text CHECK (device_id IS NULL OR device_id ~ '^[A-Za-z0-9_-]{8,64}$'),
    ip         text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT referral_clicks_once_per_session UNIQUE (code, session_id)
);
CREATE INDEX referral_clicks_created_idx ON referral_clicks (created_at);

CREATE TABLE referral_devices (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_id  text NOT NULL CHECK (device_id ~ '^[A-Za-z0-9_-]{8,64}$'),
    first_seen timestamptz NOT NULL DEFAULT now(),
    last_seen  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, device_id)
);
CREATE INDEX referral_devices_device_idx ON referral_devices (device_id);

CREATE TABLE referrals (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    referrer_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The referrer is frozen at sign-up: one referral per referee, ever.
    referee_id       uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    code             text NOT NULL,
    state            text NOT NULL DEFAULT 'cadastrado' CHECK (state IN
        ('cadastrado', 'confirmado', 'em_carencia', 'em_analise', 'recompensada', 'estornada', 'expirada', 'nao_aprovada', 'limite')),
    verdict          text NOT NULL DEFAULT 'approved' CHECK (verdict IN ('approved', 'flagged', 'rejected')),
    reasons          text[] NOT NULL DEFAULT '{}',
    evidence         jsonb NOT NULL DEFAULT '{}',
    email_normalised text NOT NULL,
    signup_ip        text,
    device_id        text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    confirmed_at     timestamptz,
    paid_at          timestamptz,
    invoice_id       text,
    hold_until       timestamptz,
    rewarded_at      timestamptz,
    reversed_at      timestamptz,
    ended_at         timestamptz,
    reviewed_by      uuid REFERENCES users (id) ON DELETE SET NULL,
    reviewed_at      timestamptz,
    review_note      text,
    CONSTRAINT referrals_not_self CHECK (referrer_id <> referee_id),
    CONSTRAINT referrals_hold_after_payment CHECK (hold_until IS NULL OR paid_at IS NOT NULL),
    CONSTRAINT referrals_rewarded_after_payment CHECK (rewarded_at IS NULL OR paid_at IS NOT NULL)
);
CREATE INDEX referrals_referrer_idx ON referrals (referrer_id, created_at DESC);
CREATE INDEX referrals_code_ip_idx ON referrals (code, signup_ip, created_at);
CREATE INDEX referrals_flagged_idx ON referrals (created_at) WHERE verdict = 'flagged';
CREATE INDEX referrals_rewarded_idx ON referrals (referrer_id, rewarded_at) WHERE rewarded_at IS NOT NULL;

-- The timeline of one referral: state changes, signals, and the staff's
-- reviews (actor_id and the note in detail): the review audit log.
CREATE TABLE referral_events (
    id          bigserial PRIMARY KEY,
    referral_id uuid NOT NULL REFERENCES referrals (id) ON DELETE CASCADE,
    type        text NOT NULL CHECK (type ~ '^[a-z_]{2,40}$'),
    actor_id    uuid REFERENCES users (id) ON DELETE SET NULL,
    detail      jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referral_events_referral_idx ON referral_events (referral_id, id);

-- Rewards given (positive) and taken back (negative), one row per key; the
-- VetCoins themselves are in points_ledger under the same key.
CREATE TABLE referral_rewards (
    id              bigserial PRIMARY KEY,
    referral_id     uuid NOT NULL REFERENCES referrals (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind IN ('vetcoins', 'free_month')),
    amount          integer NOT NULL CHECK (amount <> 0),
    idempotency_key text NOT NULL UNIQUE,
    -- When billing confirmed the customer balance credit (free months only).
    applied_at      timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referral_rewards_user_idx ON referral_rewards (user_id, kind);

CREATE TABLE referral_settings (
    id                  boolean PRIMARY KEY DEFAULT true CHECK (id),
    referrer_points     integer NOT NULL DEFAULT 500 CHECK (referrer_points BETWEEN 0 AND 100000),
    referee_points      integer NOT NULL DEFAULT 200 CHECK (referee_points BETWEEN 0 AND 100000),
    referrer_free_months integer NOT NULL DEFAULT 1 CHECK (referrer_free_months BETWEEN 0 AND 12),
    hold_days           integer NOT NULL DEFAULT 14 CHECK (hold_days BETWEEN 0 AND 90),
    window_days         integer NOT NULL DEFAULT 60 CHECK (window_days BETWEEN 1 AND 365),
    reversal_days       integer NOT NULL DEFAULT 60 CHECK (reversal_days BETWEEN 0 AND 365),
    cap_month           integer NOT NULL DEFAULT 10 CHECK (cap_month BETWEEN 0 AND 1000),
    cap_total           integer NOT NULL DEFAULT 50 CHECK (cap_total BETWEEN 0 AND 100000),
    updated_by          uuid REFERENCES users (id) ON DELETE SET NULL,
    updated_at          timestamptz NOT NULL DEFAULT now()
);
INSERT INTO referral_settings DEFAULT VALUES;

-- A reward taken back is a ledger entry of its own (never a deletion).
ALTER TABLE points_ledger DROP CONSTRAINT points_ledger_kind_check;
ALTER TABLE points_ledger ADD CONSTRAINT points_ledger_kind_check CHECK (kind IN
    ('checkin', 'checkin_bonus', 'course', 'challenge', 'post', 'referral', 'referral_reversal', 'plugin', 'redemption'));
ALTER TABLE points_ledger DROP CONSTRAINT points_ledger_sign;
ALTER TABLE points_ledger ADD CONSTRAINT points_ledger_sign CHECK ((kind IN ('redemption', 'referral_reversal')) = (amount < 0));

-- +goose Down
ALTER TABLE points_ledger DROP CONSTRAINT points_ledger_sign;
ALTER TABLE points_ledger ADD CONSTRAINT points_ledger_sign CHECK ((kind = 'redemption') = (amount < 0));
ALTER TABLE points_ledger DROP CONSTRAINT points_ledger_kind_check;
ALTER TABLE points_ledger ADD CONSTRAINT points_ledger_kind_check CHECK (kind IN
    ('checkin', 'checkin_bonus', 'course', 'challenge', 'post', 'referral', 'plugin', 'redemption'));
DROP TABLE referral_settings;
DROP TABLE referral_rewards;
DROP TABLE referral_events;
DROP TABLE referrals;
DROP TABLE referral_devices;
DROP TABLE referral_clicks;
DROP TABLE referral_codes;
