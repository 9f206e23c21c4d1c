// Package billing is VetClube's side of Stripe: one Stripe customer per
// member, checkout and the customer portal, the local copy of each member's
// subscription as Stripe said it (written by one Sync, by webhooks and by a
// nightly reconciler), the webhook inbox and the payments history. Who is
// premium is decided by core/subscriptions (entitlement): billing hands it a
// State in the same transaction as its own write.
package billing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stripe/stripe-go/v82"

	"github.com/vetclube/vetclube/core/postgres"
)

// Tiers billing maps price ids to.
const (
	TierMonthly = "premium_monthly"
	TierYearly  = "premium_yearly"
)

// State is what Stripe says of a member's subscription, as billing read it
// (core/subscriptions' BillingState; core/app converts).
type State struct {
	UserID            string
	StripeStatus      string // active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused; "" = none
	Tier              string // premium_monthly | premium_yearly
	CurrentPeriodEnd  time.Time
	CancelAtPeriodEnd bool
	PaymentFailedAt   *time.Time // set while the latest invoice failed; nil after invoice.paid
	ObservedAt        time.Time  // Stripe event time or a Sync's read time
}

// Entitlement turns a State into who is premium (core/subscriptions).
type Entitlement interface {
	// ApplyBilling writes the entitlement st implies in tx and reports
	// whether anything changed.
	ApplyBilling(ctx context.Context, tx pgx.Tx, st State) (bool, error)
	// NotifyEntitlement runs after the commit (the member's workflow).
	NotifyEntitlement(ctx context.Context, st State) error
}

// Views answers the member's subscription view (core/subscriptions' JSON).
type Views interface {
	View(ctx context.Context, userID string) (any, error)
}

// Service is billing.
type Service struct {
	pool *pgxpool.Pool
	sc   *stripe.Client
	cfg  Config
	ent  Entitlement
	view Views
	hist func(ctx context.Context, userID string) ([]TimelineEntry, error)
	now  func() time.Time
	log  *slog.Logger

	// hooks hear about paid invoices, refunds and disputes (referrals.go).
	hooks PaymentHooks

	pricesMu sync.Mutex
	prices   map[string]priceInfo
	pricesAt time.Time
}

// Options are a Service's collaborators.
type Options struct {
	Entitlement Entitlement
	Views       Views
	// EntitlementTimeline lists the member's entitlement changes for the
	// backoffice timeline (core/subscriptions' history); nil: billing
	// marks the events that changed entitlement instead.
	EntitlementTimeline func(ctx context.Context, userID string) ([]TimelineEntry, error)
	Now                 func() time.Time
	Log                 *slog.Logger
}

// New returns the service; client is built once by the caller (NewClient).
func New(pool *pgxpool.Pool, client *stripe.Client, cfg Config, o Options) *Service {
	s := &Service{pool: pool, sc: client, cfg: cfg, ent: o.Entitlement, view: o.Views, hist: o.EntitlementTimeline, now: o.Now, log: o.Log}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.cfg.Grace <= 0 {
		s.cfg.Grace = 7 * 24 * time.Hour
	}
	return s
}

// Config is the service's configuration.
func (s *Service) Config() Config { return s.cfg }

// liveStatuses are the statuses of a subscription that still decides
// entitlement (a member with one may not check out again).
var liveStatuses = []string{"active", "trialing", "past_due", "unpaid", "paused", "incomplete"}

// subscribedStatuses get 409 on checkout.
var subscribedStatuses = []string{"active", "trialing", "past_due"}

func isLive(status string) bool { return slices.Contains(liveStatuses, status) }

// row is one billing_subscriptions row.
type row struct {
	UserID            string
	CustomerID        string
	SubscriptionID    *string
	Status            string
	Tier              *string
	PriceID           *string
	CollectionMethod  *string
	CurrentPeriodEnd  *time.Time
	CancelAtPeriodEnd bool
	PaymentFailedAt   *time.Time
	StartedAt         *time.Time
	EndedAt           *time.Time
	SubEventAt        *time.Time
	SubEventID        string
	InvoiceEventAt    *time.Time
	InvoiceEventID    string
	LastEventAt       *time.Time
	SyncedAt          *time.Time
}

const rowColumns = `user_id::text, customer_id, subscription_id, status, tier, price_id, collection_method, current_period_end,
	cancel_at_period_end, payment_failed_at, started_at, ended_at, sub_event_at, sub_event_id, invoice_event_at,
	invoice_event_id, last_event_at, synced_at`

func scanRow(r pgx.Row) (*row, error) {
	var x row
	err := r.Scan(&x.UserID, &x.CustomerID, &x.SubscriptionID, &x.Status, &x.Tier, &x.PriceID, &x.CollectionMethod,
		&x.CurrentPeriodEnd, &x.CancelAtPeriodEnd, &x.PaymentFailedAt, &x.StartedAt, &x.EndedAt, &x.SubEventAt,
		&x.SubEventID, &x.InvoiceEventAt, &x.InvoiceEventID, &x.LastEventAt, &x.SyncedAt)
	if postgres.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &x, nil
}

// nullableRowColumns are rowColumns from a LEFT JOIN on b (a missing row
// reads as NULLs).
const nullableRowColumns = `b.user_id::text, b.customer_id, b.subscription_id, b.status, b.tier, b.price_id, b.collection_method,
	b.current_period_end, b.cancel_at_period_end, b.payment_failed_at, b.started_at, b.ended_at, b.sub_event_at, b.sub_event_id,
	b.invoice_event_at, b.invoice_event_id, b.last_event_at, b.synced_at`

// scanNullableRow reads the inbox status and nullableRowColumns.
func scanNullableRow(r pgx.Row) (*string, *row, error) {
	var prev, userID, customerID, status, subEventID, invEventID *string
	var cancel *bool
	var x row
	err := r.Scan(&prev, &userID, &customerID, &x.SubscriptionID, &status, &x.Tier, &x.PriceID, &x.CollectionMethod,
		&x.CurrentPeriodEnd, &cancel, &x.PaymentFailedAt, &x.StartedAt, &x.EndedAt, &x.SubEventAt,
		&subEventID, &x.InvoiceEventAt, &invEventID, &x.LastEventAt, &x.SyncedAt)
	if err != nil {
		return nil, nil, err
	}
	if userID == nil {
		return prev, nil, nil
	}
	x.UserID, x.CustomerID, x.Status, x.CancelAtPeriodEnd = *userID, *customerID, *status, *cancel
	x.SubEventID, x.InvoiceEventID = *subEventID, *invEventID
	return prev, &x, nil
}

func getRow(ctx context.Context, q querier, userID string) (*row, error) {
	r, err := scanRow(q.QueryRow(ctx, `SELECT `+rowColumns+` FROM billing_subscriptions WHERE user_id = $1`, userID))
	if err != nil {
		return nil, fmt.Errorf("read billing subscription: %w", err)
	}
	return r, nil
}

// putRowSQL writes a whole row.
const putRowSQL = `INSERT INTO billing_subscriptions (user_id, customer_id, subscription_id, status, tier, price_id,
		collection_method, current_period_end, cancel_at_period_end, payment_failed_at, started_at, ended_at, sub_event_at,
		sub_event_id, invoice_event_at, invoice_event_id, last_event_at, synced_at, updated_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18, now())
		ON CONFLICT (user_id) DO UPDATE SET customer_id = EXCLUDED.customer_id, subscription_id = EXCLUDED.subscription_id,
		status = EXCLUDED.status, tier = EXCLUDED.tier, price_id = EXCLUDED.price_id, collection_method = EXCLUDED.collection_method,
		current_period_end = EXCLUDED.current_period_end, cancel_at_period_end = EXCLUDED.cancel_at_period_end,
		payment_failed_at = EXCLUDED.payment_failed_at, started_at = EXCLUDED.started_at, ended_at = EXCLUDED.ended_at,
		sub_event_at = EXCLUDED.sub_event_at, sub_event_id = EXCLUDED.sub_event_id, invoice_event_at = EXCLUDED.invoice_event_at,
		invoice_event_id = EXCLUDED.invoice_event_id, last_event_at = EXCLUDED.last_event_at, synced_at = EXCLUDED.synced_at,
		updated_at = now()`

func putRowArgs(x *row) []any {
	return []any{x.UserID, x.CustomerID, x.SubscriptionID, x.Status, x.Tier, x.PriceID, x.CollectionMethod, x.CurrentPeriodEnd,
		x.CancelAtPeriodEnd, x.PaymentFailedAt, x.StartedAt, x.EndedAt, x.SubEventAt, x.SubEventID, x.InvoiceEventAt,
		x.InvoiceEventID, x.LastEventAt, x.SyncedAt}
}

func putRow(ctx context.Context, tx pgx.Tx, x *row) error {
	if _, err := tx.Exec(ctx, putRowSQL, putRowArgs(x)...); err != nil {
		return fmt.Errorf("write billing subscription: %w", err)
	}
	return nil
}

func queuePutRow(b *pgx.Batch, x *row) { b.Queue(putRowSQL, putRowArgs(x)...) }

// state is the row as entitlement reads it.
func (x *row) state() State {
	st := State{UserID: x.UserID, StripeStatus: x.Status, CancelAtPeriodEnd: x.CancelAtPeriodEnd, PaymentFailedAt: x.PaymentFailedAt}
	if x.Tier != nil {
		st.Tier = *x.Tier
	}
	if x.CurrentPeriodEnd != nil {
		st.CurrentPeriodEnd = *x.CurrentPeriodEnd
	}
	for _, t := range []*time.Time{x.SubEventAt, x.InvoiceEventAt} {
		if t != nil && t.After(st.ObservedAt) {
			st.ObservedAt = *t
		}
	}
	return st
}

// newer reports whether (at, id) comes after (prevAt, prevID): the time
// first, the event id breaking ties between events so the outcome never
// depends on arrival order; id "" is a read of Stripe (a Sync).
func newer(at time.Time, id string, prevAt *time.Time, prevID string) bool {
	if prevAt == nil {
		return true
	}
	if !at.Equal(*prevAt) {
		return at.After(*prevAt)
	}
	if id == "" {
		// A read (Sync, id "") made under the member's lock after an
		// event of its second was applied saw at least what that event
		// said: it wins the tie. An event arriving later wins against the
		// read (any id sorts after ""), as it may have happened after it.
		return true
	}
	return id > prevID
}

// lockMember serialises billing's writes for one member (checkout, Sync,
// webhooks) until tx ends.
func lockMember(ctx context.Context, tx pgx.Tx, userID string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('billing:' || $1::text, 0))`, userID)
	if err != nil {
		return fmt.Errorf("lock member billing: %w", err)
	}
	return nil
}

// userOfCustomer maps a Stripe customer to the member, asking Stripe for
// its metadata.user_id (and recording the customer) when it is not known
// locally. "" when the customer is no member's.
func (s *Service) userOfCustomer(ctx context.Context, q querier, customerID string) (string, error) {
	if customerID == "" {
		return "", nil
	}
	var userID string
	err := q.QueryRow(ctx, `SELECT user_id::text FROM billing_customers WHERE customer_id = $1`, customerID).Scan(&userID)
	if err == nil {
		return userID, nil
	}
	if !postgres.IsNoRows(err) {
		return "", fmt.Errorf("find customer: %w", err)
	}
	c, err := s.sc.V1Customers.Retrieve(ctx, customerID, nil)
	if err != nil {
		var se *stripe.Error
		if errors.As(err, &se) && se.HTTPStatusCode == 404 {
			return "", nil
		}
		return "", fmt.Errorf("stripe customer %s: %w", customerID, err)
	}
	uid := c.Metadata["user_id"]
	if uid == "" || c.Deleted {
		return "", nil
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id)
		SELECT id, $2 FROM users WHERE id::text = $1 ON CONFLICT DO NOTHING`, uid, customerID)
	if err != nil {
		return "", fmt.Errorf("record customer: %w", err)
	}
	if tag.RowsAffected() == 0 {
		// Either no such user, or the member already has another customer.
		var exists bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id::text = $1)`, uid).Scan(&exists); err != nil || !exists {
			return "", err
		}
	}
	return uid, nil
}

// tierOf maps a price to a tier.
func (s *Service) tierOf(p *stripe.Price) string {
	if p == nil {
		return ""
	}
	switch p.ID {
	case s.cfg.PriceMonthly:
		return TierMonthly
	case s.cfg.PriceYearly:
		return TierYearly
	}
	if p.Recurring != nil && p.Recurring.Interval == stripe.PriceRecurringIntervalYear {
		return TierYearly
	}
	return TierMonthly
}

// snapshot applies a subscription object read at (at, id) to x; it
// reports false when x already holds something newer, or when sub is an
// old subscription while x holds a live one.
func (s *Service) snapshot(x *row, sub *stripe.Subscription, at time.Time, id string) bool {
	if !newer(at, id, x.SubEventAt, x.SubEventID) {
		return false
	}
	if sub != nil && x.SubscriptionID != nil && *x.SubscriptionID != sub.ID && isLive(x.Status) && !isLive(string(sub.Status)) {
		return false
	}
	x.SubEventAt, x.SubEventID = &at, id
	if sub == nil {
		x.SubscriptionID, x.Status, x.Tier, x.PriceID, x.CollectionMethod = nil, "", nil, nil, nil
		x.CurrentPeriodEnd, x.CancelAtPeriodEnd, x.StartedAt, x.EndedAt = nil, false, nil, nil
		return true
	}
	x.SubscriptionID = &sub.ID
	x.Status = string(sub.Status)
	x.CancelAtPeriodEnd = sub.CancelAtPeriodEnd || (sub.CancelAt > 0 && x.Status != "canceled")
	cm := string(sub.CollectionMethod)
	x.CollectionMethod = nilIfEmpty(cm)
	x.Tier, x.PriceID, x.CurrentPeriodEnd = nil, nil, nil
	if sub.Items != nil {
		for _, it := range sub.Items.Data {
			if it == nil {
				continue
			}
			if it.Price != nil {
				t := s.tierOf(it.Price)
				x.Tier, x.PriceID = &t, &it.Price.ID
			}
			if it.CurrentPeriodEnd > 0 {
				end := time.Unix(it.CurrentPeriodEnd, 0).UTC()
				x.CurrentPeriodEnd = &end
			}
			break
		}
	}
	if sub.CancelAt > 0 && x.CurrentPeriodEnd == nil {
		end := time.Unix(sub.CancelAt, 0).UTC()
		x.CurrentPeriodEnd = &end
	}
	x.StartedAt = unixPtr(sub.StartDate)
	x.EndedAt = unixPtr(sub.EndedAt)
	if x.Status == "canceled" && x.EndedAt == nil {
		x.EndedAt = unixPtr(sub.CanceledAt)
	}
	return true
}

// invoiceOutcome applies a payment failure (failed=true) or a paid invoice.
func invoiceOutcome(x *row, failed bool, at time.Time, id string) bool {
	if !newer(at, id, x.InvoiceEventAt, x.InvoiceEventID) {
		return false
	}
	x.InvoiceEventAt, x.InvoiceEventID = &at, id
	switch {
	case !failed:
		x.PaymentFailedAt = nil
	case x.PaymentFailedAt == nil:
		// Grace counts from the first failure of the unpaid invoice.
		t := at
		x.PaymentFailedAt = &t
	}
	return true
}

func unixPtr(s int64) *time.Time {
	if s <= 0 {
		return nil
	}
	t := time.Unix(s, 0).UTC()
	return &t
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Sync reads the customer's subscriptions from Stripe, writes the member's
// billing row and hands entitlement the state, in one transaction, then
// notifies entitlement. It returns the state written.
func (s *Service) Sync(ctx context.Context, customerID string) (State, error) {
	userID, err := s.userOfCustomer(ctx, s.pool, customerID)
	if err != nil {
		return State{}, err
	}
	if userID == "" {
		return State{}, fmt.Errorf("sync %s: the customer is no member's", customerID)
	}
	var st State
	var changed bool
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockMember(ctx, tx, userID); err != nil {
			return err
		}
		st, changed, err = s.syncTx(ctx, tx, userID, customerID)
		return err
	})
	if err != nil {
		return State{}, err
	}
	if changed {
		s.notify(ctx, st)
	}
	return st, nil
}

// syncTx is Sync inside tx (the member's lock held).
func (s *Service) syncTx(ctx context.Context, tx pgx.Tx, userID, customerID string) (State, bool, error) {
	sub, err := s.currentSubscription(ctx, customerID)
	if err != nil {
		return State{}, false, err
	}
	x, err := getRow(ctx, tx, userID)
	if err != nil {
		return State{}, false, err
	}
	if x == nil {
		x = &row{UserID: userID, CustomerID: customerID}
	}
	x.CustomerID = customerID
	// Stripe's event times are whole seconds: a read ranks at its second,
	// and an event of that same second wins the tie (its id sorts after
	// the read's ""), as it may have happened after the read.
	at := s.now().UTC().Truncate(time.Second)
	before := *x
	s.snapshot(x, sub, at, "")
	failed := sub != nil && (sub.Status == "past_due" || sub.Status == "unpaid" ||
		(sub.LatestInvoice != nil && sub.LatestInvoice.Status == stripe.InvoiceStatusOpen && sub.LatestInvoice.AttemptCount > 0))
	// A failure already recorded keeps its start (grace counts from it).
	if !(failed && x.PaymentFailedAt != nil) {
		invoiceOutcome(x, failed, at, "")
	} else if newer(at, "", x.InvoiceEventAt, x.InvoiceEventID) {
		x.InvoiceEventAt, x.InvoiceEventID = &at, ""
	}
	x.SyncedAt, x.LastEventAt = &at, maxTime(x.LastEventAt, at)
	if err := putRow(ctx, tx, x); err != nil {
		return State{}, false, err
	}
	st := x.state()
	changed, err := s.applyEntitlement(ctx, tx, st, sameState(before, *x))
	return st, changed, err
}

func maxTime(a *time.Time, b time.Time) *time.Time {
	if a != nil && a.After(b) {
		return a
	}
	return &b
}

// sameState reports whether the entitlement-relevant fields are unchanged.
func sameState(a, b row) bool {
	sa, sb := a.state(), b.state()
	eqT := func(x, y *time.Time) bool { return (x == nil) == (y == nil) && (x == nil || x.Equal(*y)) }
	return sa.StripeStatus == sb.StripeStatus && sa.Tier == sb.Tier && sa.CurrentPeriodEnd.Equal(sb.CurrentPeriodEnd) &&
		sa.CancelAtPeriodEnd == sb.CancelAtPeriodEnd && eqT(sa.PaymentFailedAt, sb.PaymentFailedAt)
}

// applyEntitlement hands st to entitlement in tx. A Sync that found nothing
// new still applies (it may restore what a lost write missed); entitlement
// decides whether anything changed.
func (s *Service) applyEntitlement(ctx context.Context, tx pgx.Tx, st State, _ bool) (bool, error) {
	if s.ent == nil {
		return false, nil
	}
	changed, err := s.ent.ApplyBilling(ctx, tx, st)
	if err != nil {
		return false, fmt.Errorf("apply entitlement: %w", err)
	}
	return changed, nil
}

// notify signals entitlement after a commit; a failure is logged (the
// reconciler and the next event repeat it).
func (s *Service) notify(ctx context.Context, st State) {
	if s.ent == nil {
		return
	}
	if err := s.ent.NotifyEntitlement(ctx, st); err != nil {
		s.log.WarnContext(ctx, "notify entitlement", "user_id", st.UserID, "err", err)
	}
}

// currentSubscription is the customer's subscription that decides
// entitlement: the live one, else the most recent; nil when none.
func (s *Service) currentSubscription(ctx context.Context, customerID string) (*stripe.Subscription, error) {
	params := &stripe.SubscriptionListParams{Customer: stripe.String(customerID), Status: stripe.String("all")}
	params.AddExpand("data.latest_invoice")
	params.Limit = stripe.Int64(20)
	var best *stripe.Subscription
	rank := func(x *stripe.Subscription) int {
		if i := slices.Index(liveStatuses, string(x.Status)); i >= 0 {
			return len(liveStatuses) - i + 1
		}
		return 0
	}
	for sub, err := range s.sc.V1Subscriptions.List(ctx, params) {
		if err != nil {
			return nil, fmt.Errorf("list subscriptions of %s: %w", customerID, err)
		}
		if best == nil || rank(sub) > rank(best) || (rank(sub) == rank(best) && sub.Created > best.Created) {
			best = sub
		}
	}
	return best, nil
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}
