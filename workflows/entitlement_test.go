package workflows_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/push/pushtest"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/workflows"
)

// signalRecorder is the subscriptions.Workflows the service is given: the
// test delivers the signals to the workflow under test itself.
type signalRecorder struct{}

func (signalRecorder) SignalEntitlement(context.Context, string, time.Time) error { return nil }

// fired is one FireEntitlement call and the (skipped) time it ran at.
type fired struct {
	Kind string
	At   time.Time
}

// entEnv is the time-skipping test environment running the Entitlement
// workflow with its real activities on PostgreSQL; the service's clock is
// the workflow environment's.
type entEnv struct {
	t     *testing.T
	ctx   context.Context
	pool  *pgxpool.Pool
	env   *testsuite.TestWorkflowEnvironment
	subs  *subscriptions.Service
	box   *mail.Mailbox
	notes *notifications.Service
	acts  *workflows.Activities
	user  string

	pushServer *pushtest.Server

	mu    sync.Mutex
	fires []fired
	plans int
}

func newEntEnv(t *testing.T, start time.Time) *entEnv {
	e := &entEnv{t: t, ctx: context.Background(), pool: pgtest.New(t)}
	var s testsuite.WorkflowTestSuite
	e.env = s.NewTestWorkflowEnvironment()
	e.env.SetStartTime(start)
	e.subs = subscriptions.New(e.pool, subscriptions.Options{Workflows: signalRecorder{}, TrialDuration: 7 * 24 * time.Hour,
		Now: e.env.Now})
	e.box = mail.NewMailbox(e.pool)
	// Push configured (no delivery worker: pushes stay queued for the test to count).
	keys, err := push.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	e.notes = notifications.NewService(e.pool, notifications.Options{Now: e.env.Now,
		Push: push.New(e.pool, push.Options{Keys: &keys, Subject: "mailto:ops@vetclube.test", AllowLocalServices: true})})
	e.acts = &workflows.Activities{Pool: e.pool, Notifications: e.notes, Subscriptions: e.subs, Mailer: e.box,
		Recipient: func(ctx context.Context, userID string) (string, error) {
			var email string
			err := e.pool.QueryRow(ctx, `SELECT email FROM users WHERE id = $1`, userID).Scan(&email)
			return email, err
		},
		PublicURL: "https://vetclube.test", Now: e.env.Now}
	e.env.RegisterActivity(e.acts)
	e.env.OnActivity(e.acts.PlanEntitlement, mock.Anything, mock.Anything).Return(func(ctx context.Context, u string) (workflows.EntitlementPlan, error) {
		e.mu.Lock()
		e.plans++
		e.mu.Unlock()
		return e.acts.PlanEntitlement(ctx, u)
	})
	e.env.OnActivity(e.acts.FireEntitlement, mock.Anything, mock.Anything, mock.Anything).Return(func(ctx context.Context, u string, m workflows.EntitlementPlan) error {
		e.mu.Lock()
		e.fires = append(e.fires, fired{m.Kind, e.env.Now()})
		e.mu.Unlock()
		return e.acts.FireEntitlement(ctx, u, m)
	})
	e.user = newUser(t, e.pool)
	e.pushServer = pushtest.NewServer()
	t.Cleanup(e.pushServer.Close)
	sub := e.pushServer.NewDevice("phone").Subscription()
	if _, err := e.pool.Exec(e.ctx, `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)`,
		e.user, sub.Endpoint, sub.Keys.P256dh, sub.Keys.Auth); err != nil {
		t.Fatal(err)
	}
	return e
}

// pushed is the titles of the pushes queued for the member, oldest first.
func (e *entEnv) pushed() []string {
	e.t.Helper()
	rows, err := e.pool.Query(e.ctx, `SELECT m.title FROM push_deliveries d JOIN push_messages m ON m.id = d.message_id
		WHERE d.user_id = $1 ORDER BY d.id`, e.user)
	if err != nil {
		e.t.Fatal(err)
	}
	titles, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		e.t.Fatal(err)
	}
	return titles
}

func (e *entEnv) apply(st subscriptions.BillingState) {
	e.t.Helper()
	st.UserID = e.user
	err := postgres.InTx(e.ctx, e.pool, func(tx pgx.Tx) error {
		_, err := e.subs.ApplyBilling(e.ctx, tx, st)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
}

// signal applies st at the environment's time and signals the workflow, as
// billing's Sync followed by NotifyEntitlement does.
func (e *entEnv) signalAfter(d time.Duration, st subscriptions.BillingState, check func()) {
	e.env.RegisterDelayedCallback(func() {
		if st.ObservedAt.IsZero() {
			st.ObservedAt = e.env.Now()
		}
		e.apply(st)
		e.env.SignalWorkflow(workflows.SignalEntitlement, workflows.EntitlementSignal{ObservedAt: st.ObservedAt})
		if check != nil {
			check()
		}
	}, d)
}

func (e *entEnv) run() {
	e.t.Helper()
	e.env.ExecuteWorkflow(workflows.Entitlement, workflows.EntitlementInput{UserID: e.user})
	if !e.env.IsWorkflowCompleted() || e.env.GetWorkflowError() != nil {
		e.t.Fatalf("completed=%v err=%v", e.env.IsWorkflowCompleted(), e.env.GetWorkflowError())
	}
}

func (e *entEnv) sub() *subscriptions.Subscriber {
	e.t.Helper()
	sub, err := e.subs.Get(e.ctx, e.user)
	if err != nil || sub == nil {
		e.t.Fatalf("subscriber %v %v", sub, err)
	}
	return sub
}

func (e *entEnv) firedKinds() []string {
	var out []string
	for _, f := range e.fires {
		out = append(out, f.Kind)
	}
	return out
}

func (e *entEnv) titles() []string {
	list, err := e.notes.List(e.ctx, e.user, 50)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		out = append(out, list[i].Title)
	}
	return out
}

// A trial with no payment: reminders 3 days and 1 day before the end (in-app
// and e-mail, once each), and the end exactly at trial_ends_at.
func TestEntitlementTrialRemindsAndEndsExactlyAtItsEnd(t *testing.T) {
	e := newEntEnv(t, t0)
	if err := e.subs.StartTrial(e.ctx, e.user); err != nil {
		t.Fatal(err)
	}
	end := *e.sub().TrialEndsAt
	if !end.Equal(t0.Add(7 * 24 * time.Hour)) {
		t.Fatalf("trial ends %s", end)
	}
	e.run()
	want := []fired{
		{subscriptions.MomentTrialReminder3d, end.Add(-72 * time.Hour)},
		{subscriptions.MomentTrialReminder1d, end.Add(-24 * time.Hour)},
		{subscriptions.MomentTrialEnd, end},
	}
	if len(e.fires) != len(want) {
		t.Fatalf("fired %+v, want %+v", e.fires, want)
	}
	for i := range want {
		if e.fires[i].Kind != want[i].Kind || !e.fires[i].At.Equal(want[i].At) {
			t.Fatalf("moment %d: %+v, want %+v", i, e.fires[i], want[i])
		}
	}
	sub := e.sub()
	if sub.TrialExpiredAt == nil || !sub.TrialExpiredAt.Equal(end) {
		t.Fatalf("trial expired at %v, want %s", sub.TrialExpiredAt, end)
	}
	if v := subscriptions.ViewOf(sub, end); !v.TrialExpired || v.IsPremium {
		t.Fatalf("view at the end %+v", v)
	}
	if got := strings.Join(e.titles(), " | "); got != "Seu teste Premium termina em 3 dias | Seu teste Premium termina amanhã | "+workflows.TrialExpiredTitle {
		t.Fatalf("notifications: %s", got)
	}
	if got := strings.Join(e.pushed(), " | "); got != "Seu teste Premium termina em 3 dias | Seu teste Premium termina amanhã | "+workflows.TrialExpiredTitle {
		t.Fatalf("pushes: %s", got)
	}
	mails, err := e.box.List(e.ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != 2 || mails[1].Subject != "Seu teste Premium termina em 3 dias" || mails[0].Subject != "Seu teste Premium termina amanhã" ||
		!strings.Contains(mails[0].Text, "https://vetclube.test/pricing") {
		t.Fatalf("e-mails %+v, want the two reminders", mails)
	}
	// Firing a reminder again (a retry, a duplicate workflow) sends nothing more.
	if err := e.acts.FireEntitlement(e.ctx, e.user, workflows.EntitlementPlan{Kind: subscriptions.MomentTrialReminder1d, At: end.Add(-24 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if n := len(e.titles()); n != 3 {
		t.Fatalf("%d notifications after a repeated reminder", n)
	}
}

// An active signal on day 3 keeps premium and cancels the trial's end (and
// its reminders): the workflow then has nothing left to wait for.
func TestEntitlementActiveSignalOnDay3CancelsTheDowngrade(t *testing.T) {
	e := newEntEnv(t, t0)
	if err := e.subs.StartTrial(e.ctx, e.user); err != nil {
		t.Fatal(err)
	}
	e.signalAfter(3*24*time.Hour, subscriptions.BillingState{StripeStatus: "active", Tier: "premium_monthly",
		CurrentPeriodEnd: t0.Add(33 * 24 * time.Hour)}, func() {
		if v, _ := e.subs.View(e.ctx, e.user); !v.IsPremium {
			t.Errorf("not premium right after the active state: %+v", v)
		}
	})
	e.run()
	if len(e.fires) != 0 {
		t.Fatalf("fired %+v after the member paid", e.fires)
	}
	sub := e.sub()
	if sub.Status != subscriptions.StatusActive || sub.TrialExpiredAt != nil {
		t.Fatalf("after the trial's end: %+v", sub)
	}
	if v := subscriptions.ViewOf(sub, t0.Add(8*24*time.Hour)); !v.IsPremium || v.TrialExpired {
		t.Fatalf("view on day 8: %+v", v)
	}
	if titles := e.titles(); len(titles) != 0 {
		t.Fatalf("notifications %v", titles)
	}
}

// A failed payment gives 7 days of grace, then the downgrade, exactly at
// the end of grace, with a notice.
func TestEntitlementFailedPaymentGraceThenDowngrade(t *testing.T) {
	e := newEntEnv(t, t0)
	pe := t0.Add(20 * 24 * time.Hour)
	e.apply(subscriptions.BillingState{StripeStatus: "active", Tier: "premium_yearly", CurrentPeriodEnd: pe, ObservedAt: t0})
	failed := t0
	e.apply(subscriptions.BillingState{StripeStatus: "past_due", Tier: "premium_yearly", CurrentPeriodEnd: pe,
		PaymentFailedAt: &failed, ObservedAt: t0.Add(time.Second)})
	e.env.RegisterDelayedCallback(func() {
		if v, _ := e.subs.View(e.ctx, e.user); !v.IsPremium || !v.PaymentFailed {
			t.Errorf("day 6 of grace: %+v", v)
		}
	}, 6*24*time.Hour)
	e.run()
	graceEnd := t0.Add(7 * 24 * time.Hour)
	if len(e.fires) != 1 || e.fires[0].Kind != subscriptions.MomentPremiumEnd || !e.fires[0].At.Equal(graceEnd) {
		t.Fatalf("fired %+v, want the premium end at %s", e.fires, graceEnd)
	}
	sub := e.sub()
	if sub.Status != subscriptions.StatusCanceled {
		t.Fatalf("after grace: %+v", sub)
	}
	var reason string
	if err := e.pool.QueryRow(e.ctx, `SELECT downgrade_reason FROM subscribers WHERE user_id = $1`, e.user).Scan(&reason); err != nil || reason != subscriptions.ReasonGraceEnded {
		t.Fatalf("reason %q %v", reason, err)
	}
	if titles := e.titles(); len(titles) != 1 || titles[0] != workflows.PremiumEndedTitle {
		t.Fatalf("notifications %v", titles)
	}
}

// invoice.paid inside grace (PaymentFailedAt cleared) restores at once and
// the grace timer never downgrades.
func TestEntitlementInvoicePaidInsideGraceRestores(t *testing.T) {
	e := newEntEnv(t, t0)
	pe := t0.Add(20 * 24 * time.Hour)
	failed := t0
	e.apply(subscriptions.BillingState{StripeStatus: "past_due", Tier: "premium_monthly", CurrentPeriodEnd: pe,
		PaymentFailedAt: &failed, ObservedAt: t0})
	e.signalAfter(4*24*time.Hour, subscriptions.BillingState{StripeStatus: "active", Tier: "premium_monthly", CurrentPeriodEnd: pe}, func() {
		if v, _ := e.subs.View(e.ctx, e.user); !v.IsPremium || v.PaymentFailed || v.GraceUntil != nil {
			t.Errorf("right after invoice.paid: %+v", v)
		}
	})
	e.run()
	if len(e.fires) != 0 {
		t.Fatalf("fired %+v after the invoice was paid", e.fires)
	}
	if v := subscriptions.ViewOf(e.sub(), t0.Add(10*24*time.Hour)); !v.IsPremium {
		t.Fatalf("after the grace would have ended: %+v", v)
	}
}

// Cancelled at the period's end: premium to the end, then the downgrade.
func TestEntitlementCancelAtPeriodEndDowngradesAtTheEnd(t *testing.T) {
	e := newEntEnv(t, t0)
	pe := t0.Add(12 * 24 * time.Hour)
	e.apply(subscriptions.BillingState{StripeStatus: "active", Tier: "premium_monthly", CurrentPeriodEnd: pe,
		CancelAtPeriodEnd: true, ObservedAt: t0})
	e.run()
	if len(e.fires) != 1 || e.fires[0].Kind != subscriptions.MomentPremiumEnd || !e.fires[0].At.Equal(pe) {
		t.Fatalf("fired %+v, want the premium end at %s", e.fires, pe)
	}
	if sub := e.sub(); sub.Status != subscriptions.StatusCanceled {
		t.Fatalf("after the period: %+v", sub)
	}
}

// A signal older than the last one applied is ignored (no new plan); a
// newer one or a wake-up makes the workflow read the row again.
func TestEntitlementIgnoresOlderSignals(t *testing.T) {
	e := newEntEnv(t, t0)
	if err := e.subs.StartTrial(e.ctx, e.user); err != nil {
		t.Fatal(err)
	}
	var plansBefore, plansAfterOld, plansAfterNew int
	count := func() int { e.mu.Lock(); defer e.mu.Unlock(); return e.plans }
	e.env.RegisterDelayedCallback(func() {
		e.env.SignalWorkflow(workflows.SignalEntitlement, workflows.EntitlementSignal{ObservedAt: t0.Add(time.Hour)})
	}, time.Hour)
	e.env.RegisterDelayedCallback(func() { plansBefore = count() }, 2*time.Hour)
	e.env.RegisterDelayedCallback(func() {
		e.env.SignalWorkflow(workflows.SignalEntitlement, workflows.EntitlementSignal{ObservedAt: t0.Add(30 * time.Minute)})
	}, 3*time.Hour)
	e.env.RegisterDelayedCallback(func() { plansAfterOld = count() }, 4*time.Hour)
	e.env.RegisterDelayedCallback(func() {
		e.env.SignalWorkflow(workflows.SignalEntitlement, workflows.EntitlementSignal{})
	}, 5*time.Hour)
	e.env.RegisterDelayedCallback(func() { plansAfterNew = count() }, 6*time.Hour)
	e.run()
	if plansBefore != 2 || plansAfterOld != plansBefore || plansAfterNew != plansBefore+1 {
		t.Fatalf("plans: %d after the first signal, %d after an older one, %d after a wake-up", plansBefore, plansAfterOld, plansAfterNew)
	}
}

// Many changes make the workflow continue as new, carrying the last
// observed time, so its history stays small.
func TestEntitlementContinuesAsNew(t *testing.T) {
	e := newEntEnv(t, t0)
	if err := e.subs.StartTrial(e.ctx, e.user); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 40; i++ {
		at := t0.Add(time.Duration(i) * time.Minute)
		e.env.RegisterDelayedCallback(func() {
			e.env.SignalWorkflow(workflows.SignalEntitlement, workflows.EntitlementSignal{ObservedAt: at})
		}, time.Duration(i)*time.Minute)
	}
	e.env.ExecuteWorkflow(workflows.Entitlement, workflows.EntitlementInput{UserID: e.user})
	var can *workflow.ContinueAsNewError
	if err := e.env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	if len(e.fires) != 0 {
		t.Fatalf("fired %+v before the first reminder", e.fires)
	}
}

// A trial shorter than 3 days gets only the 1-day reminder (a reminder
// whose moment came before the trial began is skipped), and the end.
func TestEntitlementShortTrialSkipsTheEarlierReminder(t *testing.T) {
	e := newEntEnv(t, t0)
	if err := e.subs.StartTrial(e.ctx, e.user); err != nil {
		t.Fatal(err)
	}
	end := t0.Add(2 * 24 * time.Hour)
	if _, err := e.pool.Exec(e.ctx, `UPDATE subscribers SET trial_ends_at = $2 WHERE user_id = $1`, e.user, end); err != nil {
		t.Fatal(err)
	}
	e.run()
	if got := e.firedKinds(); strings.Join(got, ",") != subscriptions.MomentTrialReminder1d+","+subscriptions.MomentTrialEnd {
		t.Fatalf("fired %v", got)
	}
	if !e.fires[0].At.Equal(end.Add(-24*time.Hour)) || !e.fires[1].At.Equal(end) {
		t.Fatalf("fired %+v", e.fires)
	}
	if got := strings.Join(e.titles(), " | "); got != "Seu teste Premium termina amanhã | "+workflows.TrialExpiredTitle {
		t.Fatalf("notifications: %s", got)
	}
}
