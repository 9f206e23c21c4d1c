package subscriptions_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// signals records what the service asks of the Entitlement workflow.
type signals struct {
	mu    sync.Mutex
	got   []time.Time
	users []string
}

func (s *signals) SignalEntitlement(_ context.Context, user string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, at)
	s.users = append(s.users, user)
	return nil
}

func (s *signals) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.users
	s.users, s.got = nil, nil
	slices.Sort(out)
	return out
}

type billingEnv struct {
	t    *testing.T
	ctx  context.Context
	pool *pgxpool.Pool
	svc  *subscriptions.Service
	wf   *signals
	mu   sync.Mutex
	now  time.Time
}

func newBillingEnv(t *testing.T) *billingEnv {
	e := &billingEnv{t: t, ctx: context.Background(), pool: pgtest.New(t), wf: &signals{},
		now: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
	e.svc = subscriptions.New(e.pool, subscriptions.Options{Workflows: e.wf, TrialDuration: 7 * 24 * time.Hour,
		Now: func() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }})
	return e
}

func (e *billingEnv) advance(d time.Duration) {
	e.mu.Lock()
	e.now = e.now.Add(d)
	e.mu.Unlock()
}

func (e *billingEnv) clock() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }

func (e *billingEnv) user() string {
	var id string
	if err := e.pool.QueryRow(e.ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`,
		fmt.Sprintf("b%d@example.com", rand.Int64())).Scan(&id); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *billingEnv) apply(st subscriptions.BillingState) bool {
	e.t.Helper()
	var changed bool
	err := postgres.InTx(e.ctx, e.pool, func(tx pgx.Tx) error {
		var err error
		changed, err = e.svc.ApplyBilling(e.ctx, tx, st)
		return err
	})
	if err != nil {
		e.t.Fatalf("apply %+v: %v", st, err)
	}
	return changed
}

func (e *billingEnv) view(user string) subscriptions.View {
	e.t.Helper()
	v, err := e.svc.View(e.ctx, user)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (e *billingEnv) events(user string) int {
	var n int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM user_events WHERE user_id = $1 AND type = $2`,
		user, subscriptions.EventChanged).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *billingEnv) kinds(user string) []string {
	list, err := e.svc.Changes(e.ctx, user)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, c := range list {
		out = append(out, c.Kind)
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// An active state makes a trial member premium at once with the plan; the
// same state again changes nothing and publishes nothing; an older state
// (a late webhook) is ignored.
func TestApplyBillingActiveIsPremiumAtOnceAndOlderStatesAreIgnored(t *testing.T) {
	e := newBillingEnv(t)
	u := e.user()
	if err := e.svc.StartTrial(e.ctx, u); err != nil {
		t.Fatal(err)
	}
	t0 := e.clock()
	periodEnd := t0.Add(30 * 24 * time.Hour)
	active := subscriptions.BillingState{UserID: u, StripeStatus: "active", Tier: "premium_monthly",
		CurrentPeriodEnd: periodEnd, ObservedAt: t0}
	before := e.events(u)
	if !e.apply(active) {
		t.Fatal("active state: no change reported")
	}
	v := e.view(u)
	if !v.IsPremium || v.TrialActive || str(v.Plan) != "monthly" || str(v.BillingStatus) != "active" ||
		v.CurrentPeriodEnd == nil || !v.CurrentPeriodEnd.Equal(periodEnd) || v.PaymentFailed || v.GraceUntil != nil || v.PremiumUntil != nil {
		t.Fatalf("after active: %+v", v)
	}
	if roles, _, _ := e.svc.Roles(e.ctx, u); len(roles) != 1 || roles[0] != core.RolePremium {
		t.Fatalf("roles %v", roles)
	}
	if e.events(u) != before+1 {
		t.Fatalf("subscription.changed events %d, want %d", e.events(u), before+1)
	}
	if e.apply(active) {
		t.Fatal("the same state again reported a change")
	}
	if e.events(u) != before+1 {
		t.Fatal("the same state again published an event")
	}
	older := subscriptions.BillingState{UserID: u, StripeStatus: "canceled", Tier: "premium_monthly", ObservedAt: t0.Add(-time.Minute)}
	if e.apply(older) {
		t.Fatal("an older canceled state was applied")
	}
	if v := e.view(u); !v.IsPremium {
		t.Fatalf("an older state took premium away: %+v", v)
	}
	// A newer state with a plan change is applied.
	yearly := active
	yearly.Tier, yearly.ObservedAt = "premium_yearly", t0.Add(time.Minute)
	if !e.apply(yearly) || str(e.view(u).Plan) != "yearly" {
		t.Fatalf("plan change: %+v", e.view(u))
	}
	if err := e.svc.NotifyEntitlement(e.ctx, yearly); err != nil {
		t.Fatal(err)
	}
	if n := len(e.wf.got); n == 0 || !e.wf.got[n-1].Equal(yearly.ObservedAt) {
		t.Fatalf("workflow signals %v, want the last at %v", e.wf.got, yearly.ObservedAt)
	}
	if got := e.kinds(u); fmt.Sprint(got) != "[trial_started premium plan_changed]" {
		t.Fatalf("timeline %v", got)
	}
}

// A failed payment keeps premium until the end of grace (7 days by
// default), the view says so for the dunning banner, access stops at the
// end of grace even before the workflow records the downgrade, and
// EndPremium then records it once.
func TestApplyBillingPastDueKeepsPremiumUntilGraceEnd(t *testing.T) {
	e := newBillingEnv(t)
	u := e.user()
	t0 := e.clock()
	e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "active", Tier: "premium_yearly",
		CurrentPeriodEnd: t0.Add(365 * 24 * time.Hour), ObservedAt: t0})
	failed := t0.Add(time.Hour)
	e.advance(time.Hour)
	if !e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "past_due", Tier: "premium_yearly",
		CurrentPeriodEnd: t0.Add(365 * 24 * time.Hour), PaymentFailedAt: &failed, ObservedAt: failed}) {
		t.Fatal("past_due: no change")
	}
	graceEnd := failed.Add(subscriptions.DefaultBillingGrace)
	v := e.view(u)
	if !v.IsPremium || !v.PaymentFailed || v.GraceUntil == nil || !v.GraceUntil.Equal(graceEnd) ||
		v.PremiumUntil == nil || !v.PremiumUntil.Equal(graceEnd) || str(v.BillingStatus) != "past_due" {
		t.Fatalf("in grace: %+v", v)
	}
	m, err := e.svc.NextMoment(e.ctx, u)
	if err != nil || m.Kind != subscriptions.MomentPremiumEnd || !m.At.Equal(graceEnd) {
		t.Fatalf("next moment %+v %v", m, err)
	}
	// Firing early does nothing.
	e.advance(6 * 24 * time.Hour)
	if done, err := e.svc.EndPremium(e.ctx, u); err != nil || done {
		t.Fatalf("end premium inside grace: %v %v", done, err)
	}
	if !e.view(u).IsPremium {
		t.Fatal("premium lost inside grace")
	}
	e.advance(24 * time.Hour) // exactly the end of grace
	if v := e.view(u); v.IsPremium || v.PaymentFailed {
		t.Fatalf("at the end of grace the view still says premium: %+v", v)
	}
	if done, err := e.svc.EndPremium(e.ctx, u); err != nil || !done {
		t.Fatalf("end premium at grace end: %v %v", done, err)
	}
	if done, err := e.svc.EndPremium(e.ctx, u); err != nil || done {
		t.Fatalf("end premium twice: %v %v", done, err)
	}
	sub, _ := e.svc.Get(e.ctx, u)
	if sub.Status != subscriptions.StatusCanceled {
		t.Fatalf("status after grace %q", sub.Status)
	}
	if m, _ := e.svc.NextMoment(e.ctx, u); m.Kind != "" {
		t.Fatalf("a moment after the downgrade: %+v", m)
	}
	if got := e.kinds(u); fmt.Sprint(got) != "[premium grace grace_ended]" {
		t.Fatalf("timeline %v", got)
	}
	if roles, _, _ := e.svc.Roles(e.ctx, u); len(roles) != 0 {
		t.Fatalf("roles after downgrade %v", roles)
	}
}

// invoice.paid inside grace (PaymentFailedAt cleared) restores at once and
// removes the scheduled downgrade; a late past_due state without a failure
// time keeps the first failure's grace rather than extending it.
func TestApplyBillingPaidInsideGraceRestores(t *testing.T) {
	e := newBillingEnv(t)
	u := e.user()
	t0 := e.clock()
	pe := t0.Add(30 * 24 * time.Hour)
	e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "past_due", Tier: "premium_monthly", CurrentPeriodEnd: pe,
		PaymentFailedAt: &t0, ObservedAt: t0})
	e.advance(2 * 24 * time.Hour)
	e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "past_due", Tier: "premium_monthly", CurrentPeriodEnd: pe,
		ObservedAt: e.clock()})
	if v := e.view(u); v.GraceUntil == nil || !v.GraceUntil.Equal(t0.Add(7*24*time.Hour)) {
		t.Fatalf("grace moved: %+v", v.GraceUntil)
	}
	if !e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "active", Tier: "premium_monthly", CurrentPeriodEnd: pe,
		ObservedAt: e.clock().Add(time.Second)}) {
		t.Fatal("invoice.paid: no change")
	}
	v := e.view(u)
	if !v.IsPremium || v.PaymentFailed || v.GraceUntil != nil || v.PremiumUntil != nil {
		t.Fatalf("after invoice.paid: %+v", v)
	}
	if m, _ := e.svc.NextMoment(e.ctx, u); m.Kind != "" {
		t.Fatalf("a downgrade is still planned: %+v", m)
	}
	e.advance(10 * 24 * time.Hour)
	if done, _ := e.svc.EndPremium(e.ctx, u); done || !e.view(u).IsPremium {
		t.Fatal("a stale grace timer downgraded a paid member")
	}
}

// Cancelled at period end: premium until the period's end, then the
// downgrade; canceled: not premium at once; a trial member whose checkout
// expired keeps the trial; a premium granted by hand is not Stripe's.
func TestApplyBillingCancellations(t *testing.T) {
	e := newBillingEnv(t)
	t0 := e.clock()
	pe := t0.Add(20 * 24 * time.Hour)

	u := e.user()
	e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "active", Tier: "premium_monthly", CurrentPeriodEnd: pe, ObservedAt: t0})
	e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "active", Tier: "premium_monthly", CurrentPeriodEnd: pe,
		CancelAtPeriodEnd: true, ObservedAt: t0.Add(time.Minute)})
	v := e.view(u)
	if !v.IsPremium || !v.CancelAtPeriodEnd || v.PremiumUntil == nil || !v.PremiumUntil.Equal(pe) {
		t.Fatalf("cancel at period end: %+v", v)
	}
	e.advance(20*24*time.Hour - time.Second)
	if !e.view(u).IsPremium {
		t.Fatal("premium lost before the period's end")
	}
	e.advance(time.Second)
	if done, err := e.svc.EndPremium(e.ctx, u); err != nil || !done || e.view(u).IsPremium {
		t.Fatalf("period end: %v %v", done, err)
	}
	if got := e.kinds(u); fmt.Sprint(got) != "[premium cancel_scheduled period_ended]" {
		t.Fatalf("timeline %v", got)
	}
	// Stripe's deletion arriving afterwards changes what Stripe says, not the entitlement.
	e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "canceled", Tier: "premium_monthly", CurrentPeriodEnd: pe, ObservedAt: e.clock()})
	if v := e.view(u); v.IsPremium || str(v.Status) != "canceled" || str(v.BillingStatus) != "canceled" {
		t.Fatalf("after deletion: %+v", v)
	}

	c := e.user()
	e.apply(subscriptions.BillingState{UserID: c, StripeStatus: "active", Tier: "premium_yearly", CurrentPeriodEnd: pe, ObservedAt: e.clock()})
	e.apply(subscriptions.BillingState{UserID: c, StripeStatus: "canceled", Tier: "premium_yearly", CurrentPeriodEnd: pe, ObservedAt: e.clock().Add(time.Second)})
	if v := e.view(c); v.IsPremium || str(v.Status) != "canceled" || v.TrialExpired || v.TrialActive {
		t.Fatalf("canceled: %+v", v)
	}
	if roles, _, _ := e.svc.Roles(e.ctx, c); len(roles) != 0 {
		t.Fatalf("canceled roles %v", roles)
	}

	tr := e.user()
	if err := e.svc.StartTrial(e.ctx, tr); err != nil {
		t.Fatal(err)
	}
	e.apply(subscriptions.BillingState{UserID: tr, StripeStatus: "incomplete_expired", Tier: "premium_monthly", ObservedAt: e.clock()})
	if v := e.view(tr); !v.TrialActive || v.IsPremium || str(v.Status) != "trial" {
		t.Fatalf("trial after an expired checkout: %+v", v)
	}
	// A trial member who paid and cancelled at once gets the trial's rest back.
	e.apply(subscriptions.BillingState{UserID: tr, StripeStatus: "active", Tier: "premium_monthly", CurrentPeriodEnd: pe, ObservedAt: e.clock().Add(time.Second)})
	e.apply(subscriptions.BillingState{UserID: tr, StripeStatus: "canceled", Tier: "premium_monthly", CurrentPeriodEnd: pe, ObservedAt: e.clock().Add(2 * time.Second)})
	if v := e.view(tr); !v.TrialActive || v.IsPremium {
		t.Fatalf("trial member after paying and cancelling: %+v", v)
	}

	vip := e.user()
	if err := e.svc.BecomePremium(e.ctx, vip, "vip"); err != nil {
		t.Fatal(err)
	}
	if e.apply(subscriptions.BillingState{UserID: vip, StripeStatus: "", ObservedAt: e.clock()}) {
		t.Fatal("no Stripe subscription changed a premium granted by hand")
	}
	if v := e.view(vip); !v.IsPremium || str(v.Tier) != "vip" {
		t.Fatalf("vip: %+v", v)
	}

	nobody := e.user()
	if e.apply(subscriptions.BillingState{UserID: nobody, StripeStatus: "canceled", ObservedAt: e.clock()}) {
		t.Fatal("a cancellation for a member without a row changed something")
	}
}

// Bad states are refused with a clear error and write nothing.
func TestApplyBillingRefusesBadStates(t *testing.T) {
	e := newBillingEnv(t)
	u := e.user()
	for _, st := range []subscriptions.BillingState{
		{UserID: u, StripeStatus: "bogus", ObservedAt: e.clock()},
		{UserID: u, StripeStatus: "active", Tier: "gold", ObservedAt: e.clock()},
		{UserID: u, StripeStatus: "active", Tier: "premium_monthly"},
		{StripeStatus: "active", Tier: "premium_monthly", ObservedAt: e.clock()},
	} {
		err := postgres.InTx(e.ctx, e.pool, func(tx pgx.Tx) error {
			_, err := e.svc.ApplyBilling(e.ctx, tx, st)
			return err
		})
		if core.ErrorCode(err) != core.EINVALID {
			t.Errorf("%+v: err %v, want EINVALID", st, err)
		}
	}
	if sub, _ := e.svc.Get(e.ctx, u); sub != nil {
		t.Fatalf("a refused state wrote %+v", sub)
	}
}

// Thirty states applied concurrently and in any order leave the row as
// the newest one alone does.
func TestApplyBillingConcurrentOutOfOrder(t *testing.T) {
	e := newBillingEnv(t)
	u := e.user()
	t0 := e.clock()
	var states []subscriptions.BillingState
	for i := range 30 {
		st := subscriptions.BillingState{UserID: u, StripeStatus: "active", Tier: "premium_monthly",
			CurrentPeriodEnd: t0.Add(time.Duration(30+i) * 24 * time.Hour), ObservedAt: t0.Add(time.Duration(i) * time.Second)}
		switch i % 3 {
		case 1:
			f := t0
			st.StripeStatus, st.PaymentFailedAt = "past_due", &f
		case 2:
			st.CancelAtPeriodEnd = true
		}
		states = append(states, st)
	}
	last := states[len(states)-1]
	rand.Shuffle(len(states), func(i, j int) { states[i], states[j] = states[j], states[i] })
	var wg sync.WaitGroup
	for _, st := range states {
		wg.Go(func() {
			err := postgres.InTx(e.ctx, e.pool, func(tx pgx.Tx) error {
				_, err := e.svc.ApplyBilling(e.ctx, tx, st)
				return err
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	ref := newBillingEnv(t)
	r := ref.user()
	last.UserID = r
	ref.apply(last)
	got, want := e.view(u), ref.view(r)
	if got.IsPremium != want.IsPremium || got.CancelAtPeriodEnd != want.CancelAtPeriodEnd || got.PaymentFailed != want.PaymentFailed ||
		!got.CurrentPeriodEnd.Equal(*want.CurrentPeriodEnd) || str(got.BillingStatus) != str(want.BillingStatus) {
		t.Fatalf("out of order: %+v\nin order: %+v", got, want)
	}
}

// At start every pending moment gets its workflow; afterwards the periodic
// catch-up wakes only the overdue ones (a trial or premium whose end passed
// unrecorded).
func TestResumeEntitlements(t *testing.T) {
	e := newBillingEnv(t)
	t0 := e.clock()
	trial, graceUser, paid, expired := e.user(), e.user(), e.user(), e.user()
	for _, u := range []string{trial, expired} {
		if err := e.svc.StartTrial(e.ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	// A trial whose end was recorded already has nothing pending.
	if _, err := e.pool.Exec(e.ctx, `UPDATE subscribers SET trial_expired_at = $2 WHERE user_id = $1`, expired, t0); err != nil {
		t.Fatal(err)
	}
	failed := t0
	e.apply(subscriptions.BillingState{UserID: graceUser, StripeStatus: "past_due", Tier: "premium_monthly", PaymentFailedAt: &failed, ObservedAt: t0})
	e.apply(subscriptions.BillingState{UserID: paid, StripeStatus: "active", Tier: "premium_monthly", ObservedAt: t0})
	e.wf.take()

	n, err := e.svc.ResumeEntitlements(e.ctx)
	want := []string{trial, graceUser}
	slices.Sort(want)
	if got := e.wf.take(); err != nil || n != 2 || !slices.Equal(got, want) {
		t.Fatalf("resume at start: %d %v %v, want %v", n, got, err, want)
	}
	if n, err := e.svc.ResumeOverdueEntitlements(e.ctx); err != nil || n != 0 || len(e.wf.take()) != 0 {
		t.Fatalf("nothing overdue yet: %d %v", n, err)
	}
	e.advance(7 * 24 * time.Hour) // the trial's end and the grace's end
	if n, err := e.svc.ResumeOverdueEntitlements(e.ctx); err != nil || n != 2 || !slices.Equal(e.wf.take(), want) {
		t.Fatalf("overdue: %d %v", n, err)
	}
}

// A state applied after its grace already ended (a replay after an outage,
// the workflow late) records the downgrade with its reason at once.
func TestApplyBillingAfterGraceEndedDowngradesAtOnce(t *testing.T) {
	e := newBillingEnv(t)
	u := e.user()
	t0 := e.clock()
	failed := t0
	e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "past_due", Tier: "premium_monthly", PaymentFailedAt: &failed, ObservedAt: t0})
	e.advance(8 * 24 * time.Hour)
	if !e.apply(subscriptions.BillingState{UserID: u, StripeStatus: "unpaid", Tier: "premium_monthly", PaymentFailedAt: &failed, ObservedAt: e.clock()}) {
		t.Fatal("no change")
	}
	var status, reason string
	if err := e.pool.QueryRow(e.ctx, `SELECT subscription_status, downgrade_reason FROM subscribers WHERE user_id = $1`, u).Scan(&status, &reason); err != nil {
		t.Fatal(err)
	}
	if status != subscriptions.StatusCanceled || reason != subscriptions.ReasonGraceEnded {
		t.Fatalf("status %q reason %q", status, reason)
	}
	if got := e.kinds(u); fmt.Sprint(got) != "[premium grace_ended]" {
		t.Fatalf("timeline %v", got)
	}
	if done, err := e.svc.EndPremium(e.ctx, u); err != nil || done {
		t.Fatalf("a second downgrade: %v %v", done, err)
	}
}

// The view keeps the spec's rules (premium = active with a premium tier;
// trial flags only for status trial) and stops premium at premium_until.
func TestViewOfBillingFields(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	tier := func(s string) *string { return &s }
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	for _, tc := range []struct {
		name          string
		sub           subscriptions.Subscriber
		premium, fail bool
		plan          string
	}{
		{"active monthly open-ended", subscriptions.Subscriber{Status: "active", Tier: tier("premium_monthly")}, true, false, "monthly"},
		{"active yearly in grace", subscriptions.Subscriber{Status: "active", Tier: tier("premium_yearly"), PaymentFailedAt: at(-time.Hour),
			GraceUntil: at(time.Hour), PremiumUntil: at(time.Hour)}, true, true, "yearly"},
		{"grace ended, downgrade not yet recorded", subscriptions.Subscriber{Status: "active", Tier: tier("premium_yearly"), PaymentFailedAt: at(-8 * 24 * time.Hour),
			GraceUntil: at(-time.Hour), PremiumUntil: at(-time.Hour)}, false, false, "yearly"},
		{"premium_until exactly now", subscriptions.Subscriber{Status: "active", Tier: tier("premium_monthly"), PremiumUntil: at(0)}, false, false, "monthly"},
		{"canceled keeps its plan, not premium", subscriptions.Subscriber{Status: "canceled", Tier: tier("premium_monthly")}, false, false, "monthly"},
		{"vip has no Stripe plan", subscriptions.Subscriber{Status: "active", Tier: tier("vip")}, true, false, "<nil>"},
		{"canceled with a trial end past is not an expired trial", subscriptions.Subscriber{Status: "canceled", TrialEndsAt: at(-time.Hour)}, false, false, "<nil>"},
	} {
		v := subscriptions.ViewOf(&tc.sub, now)
		if v.IsPremium != tc.premium || v.PaymentFailed != tc.fail || str(v.Plan) != tc.plan || v.TrialActive || v.TrialExpired {
			t.Errorf("%s: %+v", tc.name, v)
		}
	}
}
