package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/subscriptions"
)

// SignalEntitlement tells a member's Entitlement workflow that the
// subscriber row changed (payload EntitlementSignal).
const SignalEntitlement = "entitlement"

// EntitlementID is the id of a member's one Entitlement workflow.
func EntitlementID(userID string) string { return "entitlement/" + userID }

// EntitlementSignal is one change notice. ObservedAt is the billing state's
// time: a signal older than the last one applied is ignored; zero is a
// plain wake-up (trial start, manual grant, catch-up) that only re-reads.
type EntitlementSignal struct {
	ObservedAt time.Time
}

// EntitlementInput is the workflow's state across continue-as-new.
type EntitlementInput struct {
	UserID string
	// LastObserved is the newest billing signal applied so far.
	LastObserved time.Time
}

// EntitlementPlan is the member's next moment as the row has it (Kind ""
// means nothing is pending).
type EntitlementPlan = subscriptions.Moment

// entitlementRoundsPerRun bounds the history of one run: after this many
// plans (each an activity, a timer, maybe signals) it continues as new.
const entitlementRoundsPerRun = 25

// Entitlement is a member's alarm clock: trial reminders 3 days and 1 day
// before the end, the trial's end, the end of grace after a failed payment
// and the end of a period cancelled at its end. The subscriber row is the
// truth: each round asks PlanEntitlement for the next moment, sleeps until
// it or until a signal says the row changed, and a fired moment runs
// FireEntitlement, which re-reads the row before acting (so firing late,
// early or twice is harmless). It ends when nothing is pending; the next
// change starts it again (SignalWithStart).
func Entitlement(ctx workflow.Context, in EntitlementInput) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	signals := workflow.GetSignalChannel(ctx, SignalEntitlement)
	last := in.LastObserved
	// accept applies a signal: true when it is not older than the last one.
	accept := func(sig EntitlementSignal) bool {
		if sig.ObservedAt.IsZero() {
			return true
		}
		if sig.ObservedAt.Before(last) {
			return false
		}
		last = sig.ObservedAt
		return true
	}
	// drain takes every signal already delivered; true when one counts.
	drain := func() bool {
		woke := false
		var sig EntitlementSignal
		for signals.ReceiveAsync(&sig) {
			if accept(sig) {
				woke = true
			}
		}
		return woke
	}
	var a *Activities
	for round := 0; round < entitlementRoundsPerRun; round++ {
		drain() // the plan below reads the row these signals announced
		var plan EntitlementPlan
		if err := workflow.ExecuteActivity(ctx, a.PlanEntitlement, in.UserID).Get(ctx, &plan); err != nil {
			return err
		}
		if plan.Kind == "" {
			if drain() {
				continue
			}
			return nil
		}
		fired := false
		if wait := plan.At.Sub(workflow.Now(ctx)); wait > 0 {
			timerCtx, cancel := workflow.WithCancel(ctx)
			timer := workflow.NewTimer(timerCtx, wait)
			woke := false
			sel := workflow.NewSelector(ctx)
			sel.AddFuture(timer, func(f workflow.Future) { fired = f.Get(ctx, nil) == nil })
			sel.AddReceive(signals, func(c workflow.ReceiveChannel, _ bool) {
				var sig EntitlementSignal
				c.Receive(ctx, &sig)
				woke = accept(sig)
			})
			for !fired && !woke {
				sel.Select(ctx)
			}
			if !fired {
				cancel()
				continue // the row changed: plan again
			}
		}
		if err := workflow.ExecuteActivity(ctx, a.FireEntitlement, in.UserID, plan).Get(ctx, nil); err != nil {
			return err
		}
	}
	drain()
	return workflow.NewContinueAsNewError(ctx, Entitlement, EntitlementInput{UserID: in.UserID, LastObserved: last})
}
