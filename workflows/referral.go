package workflows

import (
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/referrals"
)

// ReferralTaskQueue is the referral workflows' queue (their own worker,
// started once core/referrals exists).
const ReferralTaskQueue = "vetclube-referrals"

// signalReferralStarted is the signal SignalWithStart carries at sign-up.
const signalReferralStarted = "started"

// ReferralID is the workflow id: one per referee.
func ReferralID(refereeID string) string { return "referral/" + refereeID }

// ReferralInput names the referral.
type ReferralInput struct {
	ReferralID string
	RefereeID  string
}

// Referral drives one referee's referral: e-mail confirmed → first paid
// invoice (within the qualification window, else 'expirada') → the hold →
// the rewards, once (or the review queue, or a cap) → a refund or dispute
// within the reversal window takes them back. Every step is an idempotent
// activity of core/referrals that checks the stored state first; a
// duplicate invoice_paid signal is ignored here and would change nothing
// there either.
func Referral(ctx workflow.Context, in ReferralInput) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	var a *ReferralActivities
	var (
		confirmed bool
		paid      *referrals.InvoicePaidSignal
		reversal  *referrals.ReversalSignal
		reviewed  *bool
	)
	emailCh := workflow.GetSignalChannel(ctx, referrals.SignalEmailConfirmed)
	paidCh := workflow.GetSignalChannel(ctx, referrals.SignalInvoicePaid)
	revCh := workflow.GetSignalChannel(ctx, referrals.SignalPaymentReversed)
	reviewCh := workflow.GetSignalChannel(ctx, referrals.SignalReviewed)
	startCh := workflow.GetSignalChannel(ctx, signalReferralStarted)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(emailCh, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); confirmed = true })
			sel.AddReceive(paidCh, func(c workflow.ReceiveChannel, _ bool) {
				var s referrals.InvoicePaidSignal
				c.Receive(ctx, &s)
				if paid == nil { // only the first paid invoice counts
					paid = &s
				}
			})
			sel.AddReceive(revCh, func(c workflow.ReceiveChannel, _ bool) {
				var s referrals.ReversalSignal
				c.Receive(ctx, &s)
				if reversal == nil {
					reversal = &s
				}
			})
			sel.AddReceive(reviewCh, func(c workflow.ReceiveChannel, _ bool) {
				var ok bool
				c.Receive(ctx, &ok)
				reviewed = &ok
			})
			sel.AddReceive(startCh, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil) })
			sel.Select(ctx)
		}
	})
	notify := func(event string) error {
		return workflow.ExecuteActivity(ctx, a.NotifyReferral, in.ReferralID, event).Get(ctx, nil)
	}
	until := func(t time.Time, cond func() bool) error {
		wait := t.Sub(workflow.Now(ctx))
		if wait <= 0 {
			return nil
		}
		_, err := workflow.AwaitWithTimeout(ctx, wait, cond)
		return err
	}
	// The free month goes to Stripe's customer balance: a few tries, then
	// it stays pending (applied_at empty, visible to the staff) rather
	// than hold the referral's notifications.
	creditCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute, MaximumAttempts: 5},
	})
	applyCredits := func() {
		if err := workflow.ExecuteActivity(creditCtx, a.ApplyReferralCredits, in.ReferralID).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Warn("referral balance credit left pending", "referral", in.ReferralID, "err", err)
		}
	}
	reverse := func() (string, error) {
		// Billing's hook may have reversed already: every step is idempotent.
		if err := workflow.ExecuteActivity(ctx, a.ReverseReferral, in.ReferralID, reversal.Kind).Get(ctx, nil); err != nil {
			return "", err
		}
		applyCredits()
		var sn referrals.Snapshot
		if err := workflow.ExecuteActivity(ctx, a.LoadReferral, in.ReferralID).Get(ctx, &sn); err != nil {
			return "", err
		}
		if err := workflow.ExecuteActivity(ctx, a.NotifyReferralEnd, in.ReferralID).Get(ctx, nil); err != nil {
			return "", err
		}
		return sn.State, nil
	}

	var sn referrals.Snapshot
	if err := workflow.ExecuteActivity(ctx, a.LoadReferral, in.ReferralID).Get(ctx, &sn); err != nil {
		return "", err
	}
	if sn.Final() {
		// Rejected at sign-up by the anti-fraud checks.
		return sn.State, notify(referrals.NotifyNotApproved)
	}
	if err := notify(referrals.NotifyAccepted); err != nil {
		return "", err
	}
	if sn.EmailConfirmed {
		confirmed = true
	}
	if sn.PaidAt == nil {
		if err := until(sn.Deadline, func() bool { return confirmed || paid != nil }); err != nil {
			return "", err
		}
		if confirmed {
			if err := workflow.ExecuteActivity(ctx, a.MarkReferralConfirmed, in.ReferralID).Get(ctx, nil); err != nil {
				return "", err
			}
		}
		if err := until(sn.Deadline, func() bool { return paid != nil }); err != nil {
			return "", err
		}
		if paid == nil {
			var expired bool
			if err := workflow.ExecuteActivity(ctx, a.ExpireReferral, in.ReferralID).Get(ctx, &expired); err != nil {
				return "", err
			}
			if expired {
				return "expirada", notify(referrals.NotifyNotApproved)
			}
		} else {
			if err := workflow.ExecuteActivity(ctx, a.MarkReferralPaid, in.ReferralID, *paid).Get(ctx, &sn); err != nil {
				return "", err
			}
			if sn.State == "em_carencia" {
				if err := notify(referrals.NotifySubscribed); err != nil {
					return "", err
				}
			}
		}
	}
	if err := workflow.ExecuteActivity(ctx, a.LoadReferral, in.ReferralID).Get(ctx, &sn); err != nil {
		return "", err
	}
	if sn.Final() || sn.HoldUntil == nil {
		return sn.State, nil
	}
	// The hold: a refund or a dispute meanwhile ends it unrewarded.
	if sn.State == "em_carencia" {
		if err := until(*sn.HoldUntil, func() bool { return reversal != nil }); err != nil {
			return "", err
		}
		if reversal != nil {
			return reverse()
		}
	}
	var res referrals.GrantResult
	for {
		if err := workflow.ExecuteActivity(ctx, a.GrantReferral, in.ReferralID).Get(ctx, &res); err != nil {
			return "", err
		}
		if res.State != "em_analise" {
			break
		}
		// Held for the staff's review: wait for their decision (or a reversal).
		reviewed = nil
		if err := until(sn.ReversalUntil, func() bool { return reviewed != nil || reversal != nil }); err != nil {
			return "", err
		}
		if reversal != nil {
			return reverse()
		}
		if reviewed == nil {
			return "em_analise", nil // no decision within the reversal window: left to the staff
		}
	}
	switch res.State {
	case "recompensada":
		applyCredits()
		if err := notify(referrals.NotifyRewarded); err != nil {
			return "", err
		}
	case "nao_aprovada", "limite":
		return res.State, notify(referrals.NotifyNotApproved)
	default:
		return res.State, nil
	}
	// The reversal window after the payment.
	if err := until(sn.ReversalUntil, func() bool { return reversal != nil }); err != nil {
		return "", err
	}
	if reversal != nil {
		return reverse()
	}
	return "recompensada", nil
}

// ReferralActivities are the referral workflow's steps, each an idempotent
// call into core/referrals.
type ReferralActivities struct {
	Referrals *referrals.Service
}

func (a *ReferralActivities) svc() (*referrals.Service, error) {
	if a.Referrals == nil {
		return nil, errMissingDependency
	}
	return a.Referrals, nil
}

func (a *ReferralActivities) LoadReferral(ctx context.Context, id string) (referrals.Snapshot, error) {
	s, err := a.svc()
	if err != nil {
		return referrals.Snapshot{}, err
	}
	return s.Load(ctx, id)
}

func (a *ReferralActivities) MarkReferralConfirmed(ctx context.Context, id string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.MarkConfirmed(ctx, id)
}

func (a *ReferralActivities) MarkReferralPaid(ctx context.Context, id string, p referrals.InvoicePaidSignal) (referrals.Snapshot, error) {
	s, err := a.svc()
	if err != nil {
		return referrals.Snapshot{}, err
	}
	return s.MarkPaid(ctx, id, p.InvoiceID, p.PaidAt)
}

func (a *ReferralActivities) ExpireReferral(ctx context.Context, id string) (bool, error) {
	s, err := a.svc()
	if err != nil {
		return false, err
	}
	return s.Expire(ctx, id)
}

func (a *ReferralActivities) GrantReferral(ctx context.Context, id string) (referrals.GrantResult, error) {
	s, err := a.svc()
	if err != nil {
		return referrals.GrantResult{}, err
	}
	return s.Grant(ctx, id)
}

func (a *ReferralActivities) ApplyReferralCredits(ctx context.Context, id string) (int, error) {
	s, err := a.svc()
	if err != nil {
		return 0, err
	}
	return s.ApplyCredits(ctx, id)
}

func (a *ReferralActivities) ReverseReferral(ctx context.Context, id, kind string) (bool, error) {
	s, err := a.svc()
	if err != nil {
		return false, err
	}
	return s.Reverse(ctx, id, kind)
}

func (a *ReferralActivities) NotifyReferralEnd(ctx context.Context, id string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.NotifyEnd(ctx, id)
}

func (a *ReferralActivities) NotifyReferral(ctx context.Context, id, event string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.Notify(ctx, id, event)
}

// NewReferralWorker returns the referral workflows' worker.
func NewReferralWorker(c client.Client, acts *ReferralActivities) worker.Worker {
	w := worker.New(c, ReferralTaskQueue, worker.Options{})
	w.RegisterWorkflow(Referral)
	w.RegisterActivity(acts)
	return w
}

// ReferralEngine implements referrals.Workflows on a Temporal client.
type ReferralEngine struct {
	Client client.Client
}

// StartReferral starts the referee's workflow with SignalWithStart: a
// duplicate start signals the running one (harmless); a finished one is
// never started again.
func (e ReferralEngine) StartReferral(ctx context.Context, referralID, refereeID string) error {
	_, err := e.Client.SignalWithStartWorkflow(ctx, ReferralID(refereeID), signalReferralStarted, nil, client.StartWorkflowOptions{
		ID:                    ReferralID(refereeID),
		TaskQueue:             ReferralTaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, Referral, ReferralInput{ReferralID: referralID, RefereeID: refereeID})
	return started(err)
}

// SignalReferral signals the referee's workflow; none running is fine.
func (e ReferralEngine) SignalReferral(ctx context.Context, refereeID, signal string, payload any) error {
	err := e.Client.SignalWorkflow(ctx, ReferralID(refereeID), "", signal, payload)
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return nil
	}
	return err
}
