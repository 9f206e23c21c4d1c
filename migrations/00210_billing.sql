-- +goose Up
-- Billing (core/billing): Stripe customers, the local copy of each member's
-- subscription as Stripe last said it, the webhook inbox, the payments
-- history and the checkout attempts. Entitlement (who is premium) stays in
-- subscribers (core/subscriptions); billing hands it what Stripe says.

-- One Stripe customer per member, stored before the first checkout.
CREATE TABLE billing_customers (
    user_id       uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id   text NOT NULL UNIQUE CHECK (customer_id <> ''),
    cpf           text CHECK (cpf IS NULL OR cpf ~ '^[0-9]{11}$'),
    tax_id        text,
    -- check-subscription syncs with Stripe at most once per 5 minutes.
    last_check_at timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- The member's subscription as Stripe last said it (one row per member:
-- the subscription that decides entitlement).
CREATE TABLE billing_subscriptions (
    user_id              uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id          text NOT NULL,
    subscription_id      text,
    status               text NOT NULL DEFAULT '' CHECK (status IN ('', 'active', 'trialing', 'past_due', 'unpaid', 'canceled',
                              'incomplete', 'incomplete_expired', 'paused')),
    tier                 text CHECK (tier IS NULL OR tier IN ('premium_monthly', 'premium_yearly')),
    price_id             text,
    collection_method    text,
    current_period_end   timestamptz,
    cancel_at_period_end boolean NOT NULL DEFAULT false,
    payment_failed_at    timestamptz,
    started_at           timestamptz,
    ended_at             timestamptz,
    -- Ordering: the newest subscription state (Stripe event time or the read
    -- time of a Sync, ties broken by event id) and the newest invoice
    -- outcome win; anything older is ignored.
    sub_event_at         timestamptz,
    sub_event_id         text NOT NULL DEFAULT '',
    invoice_event_at     timestamptz,
    invoice_event_id     text NOT NULL DEFAULT '',
    last_event_at        timestamptz,
    synced_at            timestamptz,
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_subscriptions_customer ON billing_subscriptions (customer_id);
CREATE INDEX billing_subscriptions_status ON billing_subscriptions (status);

-- The webhook inbox: one row per Stripe event id, written in the same
-- transaction as the change it caused, so a duplicate changes nothing.
CREATE TABLE billing_events (
    id           text PRIMARY KEY CHECK (id <> ''),
    type         text NOT NULL,
    status       text NOT NULL CHECK (status IN ('received', 'applied', 'ignored', 'failed')),
    attempts     integer NOT NULL DEFAULT 1 CHECK (attempts >= 0),
    created      timestamptz NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    applied_at   timestamptz,
    lag_ms       bigint NOT NULL DEFAULT 0,
    customer_id  text,
    user_id      uuid REFERENCES users (id) ON DELETE SET NULL,
    source       text NOT NULL DEFAULT 'webhook' CHECK (source IN ('webhook', 'reconciler', 'reprocess')),
    error        text NOT NULL DEFAULT '',
    -- Whether applying it changed the member's entitlement (the timeline).
    entitlement_changed boolean NOT NULL DEFAULT false,
    payload      jsonb NOT NULL
);
CREATE INDEX billing_events_received ON billing_events (received_at DESC);
CREATE INDEX billing_events_user ON billing_events (user_id, created DESC);

-- Payments history: invoices, payment attempts, refunds and disputes.
CREATE TABLE billing_payments (
    id           text PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('invoice', 'attempt', 'refund', 'dispute')),
    status       text NOT NULL,
    amount_cents bigint NOT NULL DEFAULT 0,
    at           timestamptz NOT NULL,
    description  text NOT NULL DEFAULT '',
    hosted_url   text NOT NULL DEFAULT '',
    event_id     text
);
CREATE INDEX billing_payments_user ON billing_payments (user_id, at DESC);

-- Checkout attempts: a member's open session is reused while it is open, so
-- concurrent clicks make one session; the id is the idempotency key.
CREATE TABLE billing_checkouts (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    cycle        text NOT NULL CHECK (cycle IN ('monthly', 'yearly')),
    method       text NOT NULL CHECK (method IN ('card', 'boleto')),
    session_id   text,
    url          text NOT NULL DEFAULT '',
    expires_at   timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_checkouts_user ON billing_checkouts (user_id, created_at DESC);

-- +goose Down
DROP TABLE billing_checkouts;
DROP TABLE billing_payments;
DROP TABLE billing_events;
DROP TABLE billing_subscriptions;
DROP TABLE billing_customers;
