-- +goose Up
-- Entitlement: who is premium, until when, and why. Stripe owns the billing
-- cycle (core/billing reads it and calls subscriptions.ApplyBilling); this row
-- keeps what that state entitles the member to. The principal and the view
-- read only this row, never Stripe.
--
-- subscription_status gains 'canceled': a former subscriber (or a trial that
-- paid and then stopped) whose premium ended. It is neither premium nor a
-- trial, so the trial-expired dialog does not claim a trial ended.
ALTER TABLE subscribers DROP CONSTRAINT subscribers_subscription_status_check;
ALTER TABLE subscribers ADD CONSTRAINT subscribers_subscription_status_check
    CHECK (subscription_status IN ('active', 'trial', 'canceled'));

ALTER TABLE subscribers
    -- Stripe's word for the subscription as last applied; NULL = never billed
    -- (a trial, or a premium granted by hand such as vip).
    ADD COLUMN billing_status text CHECK (billing_status IN ('', 'active', 'trialing', 'past_due', 'unpaid',
        'canceled', 'incomplete', 'incomplete_expired', 'paused')),
    ADD COLUMN current_period_end timestamptz,
    ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false,
    -- Set while the latest invoice failed (dunning); NULL after invoice.paid.
    ADD COLUMN payment_failed_at timestamptz,
    -- End of the grace a failed payment gives (payment_failed_at + BILLING_GRACE).
    ADD COLUMN grace_until timestamptz,
    -- When an active premium ends unless Stripe says otherwise first: the end
    -- of grace, or the period's end after a cancellation. NULL = open-ended.
    -- The view stops premium at this moment even if no worker runs; the
    -- Entitlement workflow then records the downgrade.
    ADD COLUMN premium_until timestamptz,
    -- ObservedAt of the last billing state applied: an older one is ignored.
    ADD COLUMN billing_observed_at timestamptz,
    -- The last downgrade, and why: canceled (Stripe ended it), grace_ended,
    -- period_ended.
    ADD COLUMN downgraded_at timestamptz,
    ADD COLUMN downgrade_reason text CHECK (downgrade_reason IN ('canceled', 'grace_ended', 'period_ended')),
    -- Trial reminders sent (3 days and 1 day before the end).
    ADD COLUMN trial_reminded_3d_at timestamptz,
    ADD COLUMN trial_reminded_1d_at timestamptz,
    ADD CONSTRAINT subscribers_grace_after_failure CHECK (grace_until IS NULL OR payment_failed_at IS NOT NULL),
    ADD CONSTRAINT subscribers_premium_until_active CHECK (premium_until IS NULL OR subscription_status = 'active');

-- The workflow catch-up lists rows with a pending moment.
CREATE INDEX subscribers_premium_until ON subscribers (premium_until) WHERE premium_until IS NOT NULL;

-- Every change of a member's entitlement, for the backoffice timeline:
-- kind is trial_started, premium, grace, canceled, trial_expired,
-- grace_ended, period_ended, restored, cancel_scheduled, plan_changed.
CREATE TABLE entitlement_changes (
    id          bigserial PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL DEFAULT now(),
    kind        text NOT NULL CHECK (kind <> ''),
    is_premium  boolean NOT NULL,
    detail      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX entitlement_changes_user ON entitlement_changes (user_id, at);

-- +goose Down
DROP TABLE entitlement_changes;
DROP INDEX subscribers_premium_until;
ALTER TABLE subscribers
    DROP CONSTRAINT subscribers_premium_until_active,
    DROP CONSTRAINT subscribers_grace_after_failure,
    DROP COLUMN trial_reminded_1d_at,
    DROP COLUMN trial_reminded_3d_at,
    DROP COLUMN downgrade_reason,
    DROP COLUMN downgraded_at,
    DROP COLUMN billing_observed_at,
    DROP COLUMN premium_until,
    DROP COLUMN grace_until,
    DROP COLUMN payment_failed_at,
    DROP COLUMN cancel_at_period_end,
    DROP COLUMN current_period_end,
    DROP COLUMN billing_status;
UPDATE subscribers SET subscription_status = 'trial' WHERE subscription_status = 'canceled';
ALTER TABLE subscribers DROP CONSTRAINT subscribers_subscription_status_check;
ALTER TABLE subscribers ADD CONSTRAINT subscribers_subscription_status_check
    CHECK (subscription_status IN ('active', 'trial'));
