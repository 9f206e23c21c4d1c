package workflows_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/referrals"
	"github.com/vetclube/vetclube/workflows"
)

// fakeBalance stands in for Stripe's customer balance (billing's side).
type fakeBalance struct{ credits map[string]int }

func (b *fakeBalance) CreditFreeMonths(_ context.Context, _ string, months int, key string) error {
	if _, dup := b.credits[key]; !dup {
		b.credits[key] = months
	}
	return nil
}
func (b *fakeBalance) CardFingerprints(context.Context, string) ([]string, error) { return nil, nil }

type referralCase struct {
	pool              *pgxpool.Pool
	env               *testsuite.TestWorkflowEnvironment
	svc               *referrals.Service
	acts              *workflows.ReferralActivities
	balance           *fakeBalance
	referrer, referee string
	in                workflows.ReferralInput
}

func newReferralCase(t *testing.T) *referralCase {
	t.Helper()
	ctx := context.Background()
	c := &referralCase{pool: pgtest.New(t), balance: &fakeBalance{credits: map[string]int{}}}
	var s testsuite.WorkflowTestSuite
	c.env = s.NewTestWorkflowEnvironment()
	c.env.SetStartTime(t0)
	c.svc = referrals.New(c.pool, referrals.Options{Billing: c.balance, Notifications: notifications.New(c.pool),
		Now: func() time.Time { return c.env.Now() }})
	c.acts = &workflows.ReferralActivities{Referrals: c.svc}
	c.env.RegisterActivity(c.acts)
	user := func(email, first, last string) string {
		var id string
		if err := c.pool.QueryRow(ctx, `INSERT INTO users (email, metadata, created_at) VALUES ($1, jsonb_build_object('first_name', $2::text, 'last_name', $3::text), $4) RETURNING id`,
			email, first, last, t0).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	c.referrer = user("ana@example.com", "Ana", "Souza")
	c.referee = user("bia@example.com", "Bia", "Lima")
	code, err := c.svc.Code(ctx, c.referrer)
	if err != nil {
		t.Fatal(err)
	}
	var out referrals.Outcome
	err = postgres.InTx(ctx, c.pool, func(tx pgx.Tx) error {
		out, err = c.svc.RecordSignupTx(ctx, tx, referrals.SignupInfo{UserID: c.referee, Code: code})
		return err
	})
	if err != nil || !out.Recorded {
		t.Fatalf("record %+v err %v", out, err)
	}
	c.in = workflows.ReferralInput{ReferralID: out.ReferralID, RefereeID: c.referee}
	return c
}

func (c *referralCase) at(d time.Duration, fn func()) { c.env.RegisterDelayedCallback(fn, d) }

func (c *referralCase) signal(name string, payload any) {
	c.env.SignalWorkflow(name, payload)
}

func (c *referralCase) run(t *testing.T) string {
	t.Helper()
	c.env.ExecuteWorkflow(workflows.Referral, c.in)
	if !c.env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	var state string
	if err := c.env.GetWorkflowResult(&state); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	return state
}

func (c *referralCase) balances(t *testing.T) (int, int) {
	t.Helper()
	l := points.New(c.pool)
	a, err := l.Balance(context.Background(), c.referrer)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Balance(context.Background(), c.referee)
	if err != nil {
		t.Fatal(err)
	}
	return a.TotalPoints, b.TotalPoints
}

func (c *referralCase) titles(t *testing.T) []string {
	t.Helper()
	list, err := notifications.New(c.pool).List(context.Background(), c.referrer, 50)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		out = append(out, list[i].Title)
	}
	return out
}

const day = 24 * time.Hour

// Both sides are rewarded once, 14 days after the first paid invoice; a
// duplicate invoice_paid signal grants nothing more.
func TestReferralRewardsOnceAfterTheHold(t *testing.T) {
	c := newReferralCase(t)
	paidAt := t0.Add(3 * day)
	var rewardedAt time.Time
	c.env.OnActivity(c.acts.GrantReferral, mock.Anything, c.in.ReferralID).Return(func(ctx context.Context, id string) (referrals.GrantResult, error) {
		rewardedAt = c.env.Now()
		return c.acts.GrantReferral(ctx, id)
	})
	c.at(day, func() { c.signal(referrals.SignalEmailConfirmed, nil) })
	c.at(3*day, func() {
		c.signal(referrals.SignalInvoicePaid, referrals.InvoicePaidSignal{InvoiceID: "in_1", PaidAt: paidAt})
	})
	c.at(4*day, func() {
		c.signal(referrals.SignalInvoicePaid, referrals.InvoicePaidSignal{InvoiceID: "in_1", PaidAt: paidAt})
		c.signal(referrals.SignalInvoicePaid, referrals.InvoicePaidSignal{InvoiceID: "in_2", PaidAt: t0.Add(4 * day)})
	})
	c.at(10*day, func() {
		d, err := c.svc.Dashboard(context.Background(), c.referrer)
		if err != nil || len(d.Referrals) != 1 || d.Referrals[0].State != "em_carencia" || d.Referrals[0].RewardAt == nil ||
			!d.Referrals[0].RewardAt.Equal(paidAt.Add(14*day)) {
			t.Errorf("during the hold the dashboard shows %+v (err %v)", d.Referrals, err)
		}
	})
	state := c.run(t)
	if state != "recompensada" {
		t.Fatalf("ended %q", state)
	}
	if want := paidAt.Add(14 * day); !rewardedAt.Equal(want) {
		t.Fatalf("rewarded at %s, want %s", rewardedAt, want)
	}
	a, b := c.balances(t)
	if a != 500 || b != 200 {
		t.Fatalf("balances %d/%d, want 500/200", a, b)
	}
	if len(c.balance.credits) != 1 {
		t.Fatalf("balance credits %v, want one free month", c.balance.credits)
	}
	want := []string{referrals.TitleAccepted, referrals.TitleSubscribed(14), referrals.TitleRewarded}
	if got := c.titles(t); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("referrer notified %q, want %q", got, want)
	}
}

// A refund on day 20 (after the reward on day 14) reverses both sides.
func TestReferralRefundOnDay20ReversesBoth(t *testing.T) {
	c := newReferralCase(t)
	c.at(day, func() { c.signal(referrals.SignalEmailConfirmed, nil) })
	c.at(2*day, func() {
		c.signal(referrals.SignalInvoicePaid, referrals.InvoicePaidSignal{InvoiceID: "in_1", PaidAt: t0.Add(2 * day)})
	})
	c.at(22*day, func() {
		a, b := c.balances(t)
		if a != 500 || b != 200 {
			t.Errorf("before the refund: %d/%d", a, b)
		}
		c.signal(referrals.SignalPaymentReversed, referrals.ReversalSignal{Kind: referrals.ReasonRefund, At: c.env.Now()})
	})
	if state := c.run(t); state != "estornada" {
		t.Fatalf("ended %q", state)
	}
	a, b := c.balances(t)
	if a != 0 || b != 0 {
		t.Fatalf("after the refund: %d/%d, want 0/0", a, b)
	}
	var credits, reversals int
	c.pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE kind = 'referral'), count(*) FILTER (WHERE kind = 'referral_reversal') FROM points_ledger`).Scan(&credits, &reversals)
	if credits != 2 || reversals != 2 {
		t.Fatalf("ledger has %d credits and %d reversals, want 2 and 2", credits, reversals)
	}
	sum := 0
	for _, m := range c.balance.credits {
		sum += m
	}
	if len(c.balance.credits) != 2 || sum != 0 {
		t.Fatalf("balance credits %v, want +1 and -1", c.balance.credits)
	}
	got := c.titles(t)
	if last := got[len(got)-1]; last != referrals.TitleNotApproved([]string{referrals.ReasonRefund}) {
		t.Fatalf("last notification %q", last)
	}
}

// A referee who never pays ends 'expirada' 60 days after sign-up.
func TestReferralExpiresAfterTheWindow(t *testing.T) {
	c := newReferralCase(t)
	var expiredAt time.Time
	c.env.OnActivity(c.acts.ExpireReferral, mock.Anything, c.in.ReferralID).Return(func(ctx context.Context, id string) (bool, error) {
		expiredAt = c.env.Now()
		return c.acts.ExpireReferral(ctx, id)
	})
	c.at(day, func() { c.signal(referrals.SignalEmailConfirmed, nil) })
	if state := c.run(t); state != "expirada" {
		t.Fatalf("ended %q", state)
	}
	if want := t0.Add(60 * day); !expiredAt.Equal(want) {
		t.Fatalf("expired at %s, want %s", expiredAt, want)
	}
	a, b := c.balances(t)
	if a != 0 || b != 0 {
		t.Fatalf("balances %d/%d", a, b)
	}
	d, _ := c.svc.Dashboard(context.Background(), c.referrer)
	if d.Referrals[0].State != "expirada" || d.Referrals[0].ReasonText == "" {
		t.Fatalf("dashboard %+v", d.Referrals[0])
	}
}

// A worker lost after the grant committed: the retry grants nothing more.
func TestReferralWorkerLostMidGrantGrantsOnce(t *testing.T) {
	c := newReferralCase(t)
	attempts := 0
	c.env.OnActivity(c.acts.GrantReferral, mock.Anything, c.in.ReferralID).Return(func(ctx context.Context, id string) (referrals.GrantResult, error) {
		attempts++
		res, err := c.acts.GrantReferral(ctx, id)
		if attempts == 1 && err == nil {
			return res, errors.New("worker lost after the grant committed")
		}
		return res, err
	})
	c.at(day, func() {
		c.signal(referrals.SignalInvoicePaid, referrals.InvoicePaidSignal{InvoiceID: "in_1", PaidAt: t0.Add(day)})
	})
	if state := c.run(t); state != "recompensada" {
		t.Fatalf("ended %q", state)
	}
	if attempts < 2 {
		t.Fatalf("grant attempts %d", attempts)
	}
	a, b := c.balances(t)
	if a != 500 || b != 200 {
		t.Fatalf("balances %d/%d, want 500/200 (once)", a, b)
	}
}

// A refund during the hold ends the referral unrewarded.
func TestReferralRefundDuringHoldPaysNothing(t *testing.T) {
	c := newReferralCase(t)
	c.at(day, func() {
		c.signal(referrals.SignalInvoicePaid, referrals.InvoicePaidSignal{InvoiceID: "in_1", PaidAt: t0.Add(day)})
	})
	c.at(5*day, func() {
		c.signal(referrals.SignalPaymentReversed, referrals.ReversalSignal{Kind: referrals.ReasonDispute, At: c.env.Now()})
	})
	if state := c.run(t); state != "nao_aprovada" {
		t.Fatalf("ended %q", state)
	}
	if a, b := c.balances(t); a != 0 || b != 0 {
		t.Fatalf("balances %d/%d", a, b)
	}
}

// A referral flagged by the anti-fraud checks waits for the staff: nothing
// is granted at the end of the hold; the approval (audited) releases it.
func TestReferralFlaggedWaitsForTheReview(t *testing.T) {
	c := newReferralCase(t)
	ctx := context.Background()
	if _, err := c.pool.Exec(ctx, `UPDATE referrals SET verdict = 'flagged', reasons = ARRAY['same_device'] WHERE id = $1`, c.in.ReferralID); err != nil {
		t.Fatal(err)
	}
	var staff string
	if err := c.pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('equipe@example.com') RETURNING id`).Scan(&staff); err != nil {
		t.Fatal(err)
	}
	c.at(day, func() {
		c.signal(referrals.SignalInvoicePaid, referrals.InvoicePaidSignal{InvoiceID: "in_1", PaidAt: t0.Add(day)})
	})
	c.at(20*day, func() {
		if a, b := c.balances(t); a != 0 || b != 0 {
			t.Errorf("paid before the review: %d/%d", a, b)
		}
		var state string
		c.pool.QueryRow(ctx, `SELECT state FROM referrals WHERE id = $1`, c.in.ReferralID).Scan(&state)
		if state != "em_analise" {
			t.Errorf("state %q during the review, want em_analise", state)
		}
		if err := c.svc.Review(ctx, staff, c.in.ReferralID, true, "Conferido: pessoas diferentes."); err != nil {
			t.Error(err)
		}
		c.signal(referrals.SignalReviewed, true)
	})
	if state := c.run(t); state != "recompensada" {
		t.Fatalf("ended %q", state)
	}
	if a, b := c.balances(t); a != 500 || b != 200 {
		t.Fatalf("balances %d/%d", a, b)
	}
}

// Billing's hook stores the first paid invoice before it signals; with the
// signal lost (Temporal unreachable then) the workflow still finds the
// payment when the qualification window ends, and rewards once.
func TestReferralPaymentStoredButSignalLost(t *testing.T) {
	c := newReferralCase(t)
	c.at(day, func() {
		// NoWorkflows: the hook's signal goes nowhere.
		if err := c.svc.InvoicePaid(context.Background(), c.referee, "in_1", t0.Add(day)); err != nil {
			t.Error(err)
		}
	})
	var grantedAt time.Time
	c.env.OnActivity(c.acts.GrantReferral, mock.Anything, c.in.ReferralID).Return(func(ctx context.Context, id string) (referrals.GrantResult, error) {
		grantedAt = c.env.Now()
		return c.acts.GrantReferral(ctx, id)
	})
	if state := c.run(t); state != "recompensada" {
		t.Fatalf("ended %q", state)
	}
	if want := t0.Add(60 * day); !grantedAt.Equal(want) {
		t.Fatalf("granted at %s, want at the window's end %s", grantedAt, want)
	}
	if a, b := c.balances(t); a != 500 || b != 200 {
		t.Fatalf("balances %d/%d", a, b)
	}
}
