// Package signups keeps who takes part in a published content item that has
// a capacity (an event's max_participants): seats, a first-come waiting
// list, and seat offers held for a while for the first person waiting.
//
// Seats are a locked counter: every change takes the item's signup_counts
// row FOR UPDATE and moves participants (and held, the seats kept for
// pending offers) in the same transaction as the rows they count. So
// participants always equals the signups rows, and participants + held never
// passes the capacity however many people press "Participar" at once.
//
// When a seat frees and someone waits, the seat is offered in that same
// transaction (held); the caller starts the offer's durable timer after the
// commit (OfferTimers). A claimed offer becomes a seat; an expired one
// passes the seat to the next person waiting.
package signups

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// DefaultHold is how long a freed seat is kept for the person offered it.
const DefaultHold = 12 * time.Hour

// Messages readers see.
const (
	MsgNotFound    = "Evento não encontrado."
	MsgFull        = "Não há mais vagas. Entre na lista de espera para ser avisado quando uma vaga abrir."
	MsgNotFull     = "Ainda há vagas: participe diretamente."
	MsgParticipant = "Você já participa deste evento."
)

// Status is a reader's place in an item.
type Status string

const (
	StatusNone        Status = ""            // neither signed up nor waiting
	StatusParticipant Status = "participant" // has a seat
	StatusWaiting     Status = "waiting"     // on the waiting list
	StatusOffered     Status = "offered"     // a seat is held for them until Offer.ExpiresAt
)

// Offer is a seat held for one person.
type Offer struct {
	ID        string    `json:"id"`
	ItemID    string    `json:"item_id"`
	UserID    string    `json:"user_id"`
	ExpiresAt time.Time `json:"expires_at"`
}

// State is an item's seats and one reader's place.
type State struct {
	Capacity     *int   `json:"capacity"` // nil: unlimited
	Participants int    `json:"participants"`
	Held         int    `json:"held"`
	Waiting      int    `json:"waiting"`
	Status       Status `json:"status"`
	Position     int    `json:"position,omitempty"` // 1-based place on the waiting list
	Offer        *Offer `json:"offer,omitempty"`
}

// SeatsLeft is how many seats anyone may take now (nil: unlimited).
func (s State) SeatsLeft() *int {
	if s.Capacity == nil {
		return nil
	}
	n := max(*s.Capacity-s.Participants-s.Held, 0)
	return &n
}

// Service keeps sign-ups.
type Service struct {
	pool          *pgxpool.Pool
	now           func() time.Time
	hold          time.Duration
	capacityField string
}

// Options configures a Service.
type Options struct {
	Now  func() time.Time // time.Now when nil
	Hold time.Duration    // DefaultHold when 0
	// CapacityField is the field of the published snapshot holding the
	// capacity ("max_participants" when empty); absent means unlimited.
	CapacityField string
}

// New returns a service on pool.
func New(pool *pgxpool.Pool, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Hold <= 0 {
		opts.Hold = DefaultHold
	}
	if opts.CapacityField == "" {
		opts.CapacityField = "max_participants"
	}
	return &Service{pool: pool, now: opts.Now, hold: opts.Hold, capacityField: opts.CapacityField}
}

// Hold is how long an offer keeps its seat.
func (s *Service) Hold() time.Duration { return s.hold }

func notFound() error { return core.Errorf(core.ENOTFOUND, MsgNotFound) }

// counts is an item's locked counter row.
type counts struct {
	capacity     *int
	participants int
	held         int
}

func (c counts) free() bool {
	return c.capacity == nil || c.participants+c.held < *c.capacity
}

// lock takes item's counter row for the transaction (creating it on first
// use) and reads the capacity from the published snapshot; an item readers
// cannot see is not found.
func (s *Service) lock(ctx context.Context, tx pgx.Tx, itemID string) (counts, error) {
	var c counts
	if uuid.Validate(itemID) != nil {
		return c, notFound()
	}
	var published bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM content_published WHERE item_id = $1)`, itemID).Scan(&published); err != nil {
		return c, fmt.Errorf("read item: %w", err)
	}
	if !published {
		return c, notFound()
	}
	if _, err := tx.Exec(ctx, `INSERT INTO signup_counts (item_id) VALUES ($1) ON CONFLICT DO NOTHING`, itemID); err != nil {
		return c, fmt.Errorf("create counter: %w", err)
	}
	var capacity *float64
	err := tx.QueryRow(ctx, `SELECT c.participants, c.held,
			CASE WHEN jsonb_typeof(p.fields -> $2) = 'number' THEN (p.fields ->> $2)::float8 END
		FROM signup_counts c JOIN content_published p ON p.item_id = c.item_id
		WHERE c.item_id = $1 FOR UPDATE OF c`, itemID, s.capacityField).Scan(&c.participants, &c.held, &capacity)
	if postgres.IsNoRows(err) {
		return c, notFound()
	}
	if err != nil {
		return c, fmt.Errorf("lock counter: %w", err)
	}
	if capacity != nil {
		n := int(*capacity)
		c.capacity = &n
	}
	return c, nil
}

func (s *Service) save(ctx context.Context, tx pgx.Tx, itemID string, c counts) error {
	if _, err := tx.Exec(ctx, `UPDATE signup_counts SET participants = $2, held = $3 WHERE item_id = $1`,
		itemID, c.participants, c.held); err != nil {
		return fmt.Errorf("update counter: %w", err)
	}
	return nil
}

// Join gives userID a seat on itemID: the seat held by their pending offer,
// or a free one. With no free seat it fails with MsgFull (409); being
// already a participant is not an error.
func (s *Service) Join(ctx context.Context, itemID, userID string) error {
	if uuid.Validate(userID) != nil {
		return fmt.Errorf("signups: user id %q is not a uuid", userID)
	}
	return postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		c, err := s.lock(ctx, tx, itemID)
		if err != nil {
			return err
		}
		now := s.now()
		tag, err := tx.Exec(ctx, `UPDATE signup_offers SET status = 'claimed', resolved_at = $3
			WHERE item_id = $1 AND user_id = $2 AND status = 'pending' AND expires_at > $3`, itemID, userID, now)
		if err != nil {
			return fmt.Errorf("claim offer: %w", err)
		}
		claimed := tag.RowsAffected() == 1
		if claimed {
			c.held--
		} else if !c.free() {
			var already bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM signups WHERE item_id = $1 AND user_id = $2)`,
				itemID, userID).Scan(&already); err != nil {
				return fmt.Errorf("read signup: %w", err)
			}
			if already {
				return nil
			}
			return core.Errorf(core.ECONFLICT, MsgFull)
		}
		tag, err = tx.Exec(ctx, `INSERT INTO signups (item_id, user_id, signed_up_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			itemID, userID, now)
		if err != nil {
			return fmt.Errorf("sign up: %w", err)
		}
		if tag.RowsAffected() == 1 {
			c.participants++
		}
		if _, err := tx.Exec(ctx, `DELETE FROM signup_waitlist WHERE item_id = $1 AND user_id = $2`, itemID, userID); err != nil {
			return fmt.Errorf("leave waiting list: %w", err)
		}
		return s.save(ctx, tx, itemID, c)
	})
}

// Leave gives up userID's seat, their pending offer and their place on the
// waiting list. The freed seat is offered at once to the first person
// waiting; the new offers are returned so the caller starts their timers.
func (s *Service) Leave(ctx context.Context, itemID, userID string) ([]Offer, error) {
	var offers []Offer
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		c, err := s.lock(ctx, tx, itemID)
		if err != nil {
			return err
		}
		now := s.now()
		tag, err := tx.Exec(ctx, `DELETE FROM signups WHERE item_id = $1 AND user_id = $2`, itemID, userID)
		if err != nil {
			return fmt.Errorf("leave: %w", err)
		}
		c.participants -= int(tag.RowsAffected())
		tag, err = tx.Exec(ctx, `UPDATE signup_offers SET status = 'declined', resolved_at = $3
			WHERE item_id = $1 AND user_id = $2 AND status = 'pending'`, itemID, userID, now)
		if err != nil {
			return fmt.Errorf("decline offer: %w", err)
		}
		c.held -= int(tag.RowsAffected())
		if _, err := tx.Exec(ctx, `DELETE FROM signup_waitlist WHERE item_id = $1 AND user_id = $2`, itemID, userID); err != nil {
			return fmt.Errorf("leave waiting list: %w", err)
		}
		offers, err = s.offerFreeSeats(ctx, tx, itemID, &c, now)
		if err != nil {
			return err
		}
		return s.save(ctx, tx, itemID, c)
	})
	return offers, err
}

// Wait puts userID on itemID's waiting list. It is refused while seats are
// free (join instead) and for a participant; waiting twice keeps the first
// place.
func (s *Service) Wait(ctx context.Context, itemID, userID string) error {
	if uuid.Validate(userID) != nil {
		return fmt.Errorf("signups: user id %q is not a uuid", userID)
	}
	return postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		c, err := s.lock(ctx, tx, itemID)
		if err != nil {
			return err
		}
		var participant, offered bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM signups WHERE item_id = $1 AND user_id = $2),
				EXISTS (SELECT 1 FROM signup_offers WHERE item_id = $1 AND user_id = $2 AND status = 'pending')`,
			itemID, userID).Scan(&participant, &offered); err != nil {
			return fmt.Errorf("read place: %w", err)
		}
		switch {
		case participant:
			return core.Errorf(core.ECONFLICT, MsgParticipant)
		case offered:
			return nil
		case c.free():
			return core.Errorf(core.ECONFLICT, MsgNotFull)
		}
		_, err = tx.Exec(ctx, `INSERT INTO signup_waitlist (item_id, user_id, joined_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			itemID, userID, s.now())
		if err != nil {
			return fmt.Errorf("join waiting list: %w", err)
		}
		return nil
	})
}

// offerFreeSeats offers every seat neither taken nor held to the people
// waiting, first come first served, inside the caller's locked transaction.
func (s *Service) offerFreeSeats(ctx context.Context, tx pgx.Tx, itemID string, c *counts, now time.Time) ([]Offer, error) {
	var offers []Offer
	for c.capacity != nil && c.free() {
		var o Offer
		err := tx.QueryRow(ctx, `WITH first AS (
				DELETE FROM signup_waitlist WHERE (item_id, user_id) = (
					SELECT item_id, user_id FROM signup_waitlist WHERE item_id = $1 ORDER BY position LIMIT 1)
				RETURNING item_id, user_id)
			INSERT INTO signup_offers (item_id, user_id, offered_at, expires_at)
			SELECT item_id, user_id, $2, $3 FROM first
			RETURNING id, item_id, user_id, expires_at`, itemID, now, now.Add(s.hold)).Scan(&o.ID, &o.ItemID, &o.UserID, &o.ExpiresAt)
		if postgres.IsNoRows(err) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("offer seat: %w", err)
		}
		c.held++
		offers = append(offers, o)
	}
	return offers, nil
}

// Rebalance offers seats freed by a larger capacity to the people waiting.
func (s *Service) Rebalance(ctx context.Context, itemID string) ([]Offer, error) {
	var offers []Offer
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		c, err := s.lock(ctx, tx, itemID)
		if err != nil {
			return err
		}
		if offers, err = s.offerFreeSeats(ctx, tx, itemID, &c, s.now()); err != nil {
			return err
		}
		return s.save(ctx, tx, itemID, c)
	})
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil, nil
	}
	return offers, err
}

// OfferState is an offer as stored.
type OfferState struct {
	Offer
	Status string // pending, claimed, expired, declined
	Slug   string // the item's public slug ("" once unpublished)
}

// GetOffer reads offer id.
func (s *Service) GetOffer(ctx context.Context, id string) (OfferState, error) {
	var o OfferState
	if uuid.Validate(id) != nil {
		return o, notFound()
	}
	err := s.pool.QueryRow(ctx, `SELECT o.id, o.item_id, o.user_id, o.expires_at, o.status, coalesce(p.slug, '')
		FROM signup_offers o LEFT JOIN content_published p ON p.item_id = o.item_id WHERE o.id = $1`, id).
		Scan(&o.ID, &o.ItemID, &o.UserID, &o.ExpiresAt, &o.Status, &o.Slug)
	if postgres.IsNoRows(err) {
		return o, notFound()
	}
	if err != nil {
		return o, fmt.Errorf("read offer: %w", err)
	}
	return o, nil
}

// Expire ends offer id when its time has come (at or after its expiry) and
// it is still pending, and offers its seat to the next person waiting (the
// new offers are returned). An offer not yet due returns its expiry in
// later; one already claimed, declined or expired changes nothing, so a
// timer firing twice or late never passes a seat twice.
func (s *Service) Expire(ctx context.Context, offerID string) (later *time.Time, next []Offer, err error) {
	o, err := s.GetOffer(ctx, offerID)
	if err != nil {
		return nil, nil, err
	}
	if o.Status != "pending" {
		return nil, nil, nil
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		c, err := s.lock(ctx, tx, o.ItemID)
		if core.ErrorCode(err) == core.ENOTFOUND {
			// Unpublished: the offer ends without passing the seat on.
			_, err = tx.Exec(ctx, `UPDATE signup_offers SET status = 'expired', resolved_at = $2
				WHERE id = $1 AND status = 'pending'`, offerID, s.now())
			if err == nil {
				_, err = tx.Exec(ctx, `UPDATE signup_counts SET held = greatest(held - 1, 0) WHERE item_id = $1`, o.ItemID)
			}
			return err
		}
		if err != nil {
			return err
		}
		now := s.now()
		var expiresAt time.Time
		var status string
		if err := tx.QueryRow(ctx, `SELECT status, expires_at FROM signup_offers WHERE id = $1`, offerID).Scan(&status, &expiresAt); err != nil {
			return fmt.Errorf("read offer: %w", err)
		}
		if status != "pending" {
			return nil
		}
		if expiresAt.After(now) {
			later = &expiresAt
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE signup_offers SET status = 'expired', resolved_at = $2 WHERE id = $1`, offerID, now); err != nil {
			return fmt.Errorf("expire offer: %w", err)
		}
		c.held--
		if next, err = s.offerFreeSeats(ctx, tx, o.ItemID, &c, now); err != nil {
			return err
		}
		return s.save(ctx, tx, o.ItemID, c)
	})
	return later, next, err
}

// PendingOffers lists every pending offer (the catch-up gives each a timer).
func (s *Service) PendingOffers(ctx context.Context) ([]Offer, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, item_id, user_id, expires_at FROM signup_offers WHERE status = 'pending' ORDER BY expires_at`)
	if err != nil {
		return nil, fmt.Errorf("pending offers: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Offer, error) {
		var o Offer
		err := r.Scan(&o.ID, &o.ItemID, &o.UserID, &o.ExpiresAt)
		return o, err
	})
	if err != nil {
		return nil, fmt.Errorf("pending offers: %w", err)
	}
	return list, nil
}

// Participants lists the ids of itemID's participants, first signed up first.
func (s *Service) Participants(ctx context.Context, itemID string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT user_id::text FROM signups WHERE item_id = $1 ORDER BY signed_up_at, user_id`, itemID)
	if err != nil {
		return nil, fmt.Errorf("participants: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("participants: %w", err)
	}
	return ids, nil
}

// StateOf returns itemID's seats and readerID's place ("" for anonymous).
// It reads without locking: a snapshot for display.
func (s *Service) StateOf(ctx context.Context, itemID, readerID string) (State, error) {
	var st State
	if uuid.Validate(itemID) != nil {
		return st, notFound()
	}
	var capacity *float64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(c.participants, 0), coalesce(c.held, 0),
			CASE WHEN jsonb_typeof(p.fields -> $2) = 'number' THEN (p.fields ->> $2)::float8 END,
			(SELECT count(*) FROM signup_waitlist w WHERE w.item_id = p.item_id)
		FROM content_published p LEFT JOIN signup_counts c ON c.item_id = p.item_id WHERE p.item_id = $1`,
		itemID, s.capacityField).Scan(&st.Participants, &st.Held, &capacity, &st.Waiting)
	if postgres.IsNoRows(err) {
		return st, notFound()
	}
	if err != nil {
		return st, fmt.Errorf("read seats: %w", err)
	}
	if capacity != nil {
		n := int(*capacity)
		st.Capacity = &n
	}
	if uuid.Validate(readerID) != nil {
		return st, nil
	}
	var participant bool
	var position *int
	var offerID *string
	var expires *time.Time
	err = s.pool.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM signups WHERE item_id = $1 AND user_id = $2),
			(SELECT count(*) FROM signup_waitlist w, signup_waitlist me
				WHERE me.item_id = $1 AND me.user_id = $2 AND w.item_id = $1 AND w.position <= me.position)::int,
			o.id::text, o.expires_at
		FROM (SELECT 1) AS one
		LEFT JOIN signup_offers o ON o.item_id = $1 AND o.user_id = $2 AND o.status = 'pending'`,
		itemID, readerID).Scan(&participant, &position, &offerID, &expires)
	if err != nil {
		return st, fmt.Errorf("read place: %w", err)
	}
	switch {
	case participant:
		st.Status = StatusParticipant
	case offerID != nil && expires != nil:
		st.Status, st.Offer = StatusOffered, &Offer{ID: *offerID, ItemID: itemID, UserID: readerID, ExpiresAt: *expires}
	case position != nil && *position > 0:
		st.Status, st.Position = StatusWaiting, *position
	}
	return st, nil
}

// ReleaseOffers ends every pending offer on itemID without passing its seat
// on: the item will not take place (an event cancelled), so a held seat is
// no use to anyone. Each holder goes back to the head of the waiting list,
// in the order they were offered, so they come first again should the item
// be back on. Releasing twice changes nothing. It returns the offers
// released.
func (s *Service) ReleaseOffers(ctx context.Context, itemID string) ([]Offer, error) {
	if uuid.Validate(itemID) != nil {
		return nil, nil
	}
	var released []Offer
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		// The counter's lock alone (not lock): an item taken offline still
		// has its held seats to give back.
		var held int
		err := tx.QueryRow(ctx, `SELECT held FROM signup_counts WHERE item_id = $1 FOR UPDATE`, itemID).Scan(&held)
		if postgres.IsNoRows(err) {
			return nil // never signed up for: nothing held
		}
		if err != nil {
			return fmt.Errorf("lock counter: %w", err)
		}
		rows, err := tx.Query(ctx, `WITH released AS (
				UPDATE signup_offers SET status = 'expired', resolved_at = $2
				WHERE item_id = $1 AND status = 'pending'
				RETURNING id, item_id, user_id, offered_at, expires_at),
			head AS (SELECT coalesce(min(position), 1) AS p FROM signup_waitlist WHERE item_id = $1),
			requeued AS (
				INSERT INTO signup_waitlist (item_id, user_id, position, joined_at)
				SELECT r.item_id, r.user_id, head.p - row_number() OVER (ORDER BY r.offered_at DESC, r.user_id DESC), $2
				FROM released r, head
				ON CONFLICT DO NOTHING)
			SELECT id::text, item_id::text, user_id::text, expires_at FROM released ORDER BY offered_at, user_id`, itemID, s.now())
		if err != nil {
			return fmt.Errorf("release offers: %w", err)
		}
		released, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Offer, error) {
			var o Offer
			err := r.Scan(&o.ID, &o.ItemID, &o.UserID, &o.ExpiresAt)
			return o, err
		})
		if err != nil {
			return fmt.Errorf("release offers: %w", err)
		}
		if len(released) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE signup_counts SET held = greatest(held - $2, 0) WHERE item_id = $1`, itemID, len(released)); err != nil {
			return fmt.Errorf("update counter: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return released, nil
}

// Waiter is one person on a waiting list.
type Waiter struct {
	UserID string
	// OfferReleased: a seat was offered to them and released before its
	// expiry (ReleaseOffers put them back in line).
	OfferReleased bool
}

// Waiting lists itemID's waiting list, first in line first.
func (s *Service) Waiting(ctx context.Context, itemID string) ([]Waiter, error) {
	// ReleaseOffers ends the offer before its own expiry (a natural expiry
	// happens at or after it) and requeues its holder at that very moment.
	rows, err := s.pool.Query(ctx, `SELECT w.user_id::text, EXISTS (SELECT 1 FROM signup_offers o
			WHERE o.item_id = w.item_id AND o.user_id = w.user_id AND o.status = 'expired'
			AND o.resolved_at < o.expires_at AND o.resolved_at = w.joined_at)
		FROM signup_waitlist w WHERE w.item_id = $1 ORDER BY w.position`, itemID)
	if err != nil {
		return nil, fmt.Errorf("waiting list: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Waiter, error) {
		var w Waiter
		err := r.Scan(&w.UserID, &w.OfferReleased)
		return w, err
	})
	if err != nil {
		return nil, fmt.Errorf("waiting list: %w", err)
	}
	return list, nil
}
