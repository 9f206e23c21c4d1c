-- +goose Up
-- Sign-ups with a capacity and a waiting list, for any published content item
-- whose snapshot carries a capacity field (events' max_participants); owned
-- by core/signups.
--
-- signup_counts is the locked counter: every change takes its row FOR UPDATE
-- and moves participants (and held, the seats reserved by pending offers)
-- in the same transaction as the rows they count, so participants always
-- equals the signups rows and participants + held never passes the capacity.
CREATE TABLE signup_counts (
    item_id      uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    participants integer NOT NULL DEFAULT 0 CHECK (participants >= 0),
    held         integer NOT NULL DEFAULT 0 CHECK (held >= 0)
);

CREATE TABLE signups (
    item_id      uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    signed_up_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX signups_user_idx ON signups (user_id, signed_up_at DESC);

-- The waiting list, first come first served (position breaks ties).
CREATE TABLE signup_waitlist (
    item_id   uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    position  bigserial NOT NULL,
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX signup_waitlist_order_idx ON signup_waitlist (item_id, position);

-- A freed seat offered to the first person waiting, held until expires_at.
CREATE TABLE signup_offers (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    item_id     uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'expired', 'declined')),
    offered_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL CHECK (expires_at > offered_at),
    resolved_at timestamptz,
    CHECK ((status = 'pending') = (resolved_at IS NULL))
);
CREATE UNIQUE INDEX signup_offers_one_pending_idx ON signup_offers (item_id, user_id) WHERE status = 'pending';
CREATE INDEX signup_offers_pending_idx ON signup_offers (expires_at) WHERE status = 'pending';

-- +goose Down
DROP TABLE signup_offers;
DROP TABLE signup_waitlist;
DROP TABLE signups;
DROP TABLE signup_counts;
