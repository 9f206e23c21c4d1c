package workflows

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/challenges"
)

// Challenges' durable timers (core/challenges). As with the publication
// timers, the database is the source of truth and the workflows are alarm
// clocks: each firing re-reads the challenge (an announcement or reminder
// already sent, or a close whose end was moved later, does nothing), so a
// stale, late or repeated firing never notifies twice or closes early.

// ChallengeTaskQueue is the queue of the challenges' timers.
const ChallengeTaskQueue = "vetclube-challenges"

// ChallengeTimerID is the workflow id of challenge itemID's timer.
func ChallengeTimerID(itemID string) string { return "challenge-timer/" + itemID }

// WeeklyRankingID is the workflow id of the weekly ranking snapshot.
const WeeklyRankingID = "challenge-weekly-ranking"

// SignalChallengeSchedule moves a challenge's period; QueryChallengeSchedule
// answers ChallengeTimerState.
const (
	SignalChallengeSchedule = "challenge-schedule"
	QueryChallengeSchedule  = "challenge-schedule"
)

// ChallengePeriod is a challenge's start and end.
type ChallengePeriod struct {
	StartsAt time.Time
	EndsAt   time.Time
}

// ChallengeTimerInput starts a challenge's timer (the period usually
// arrives by the start signal instead).
type ChallengeTimerInput struct {
	ItemID string
	Period *ChallengePeriod
	// Announced, Reminded: moments already handled (continue-as-new).
	Announced, Reminded bool
}

// ChallengeTimerState is what the query answers.
type ChallengeTimerState struct {
	ItemID   string
	Period   *ChallengePeriod
	Next     *time.Time
	NextKind string // announce, remind, close
}

// Moments of a challenge's timer.
const (
	ChallengeAnnounce = "announce"
	ChallengeRemind   = "remind"
	ChallengeClose    = "close"
)

type challengeTimer struct {
	period              *ChallengePeriod
	announced, reminded bool
}

func (c *challengeTimer) set(p ChallengePeriod) {
	if c.period == nil || !c.period.StartsAt.Equal(p.StartsAt) {
		c.announced = false
	}
	if c.period == nil || !c.period.EndsAt.Equal(p.EndsAt) {
		c.reminded = false
	}
	p.StartsAt, p.EndsAt = p.StartsAt.UTC(), p.EndsAt.UTC()
	c.period = &p
}

// next is the timer's next moment: the start's announcement, the
// ending-soon reminder (skipped when the start comes later than it), then
// the close at the end.
func (c *challengeTimer) next() (*time.Time, string) {
	if c.period == nil {
		return nil, ""
	}
	if !c.announced {
		at := c.period.StartsAt
		return &at, ChallengeAnnounce
	}
	if remind := c.period.EndsAt.Add(-challenges.EndingSoonLead); !c.reminded && remind.After(c.period.StartsAt) {
		return &remind, ChallengeRemind
	}
	at := c.period.EndsAt
	return &at, ChallengeClose
}

// ChallengeTimer is a challenge's timer (the updatable-timer pattern): it
// sleeps until the start (members of its specialty are told), until a day
// before the end (members with unsent answers are reminded), and until
// the end (unsent drafts are closed, late answers refused). A signal moves
// the period; a close that finds a later end in the database sleeps until
// it. It ends once closed; a later change starts it again
// (SignalWithStart).
func ChallengeTimer(ctx workflow.Context, in ChallengeTimerInput) error {
	c := &challengeTimer{announced: in.Announced, reminded: in.Reminded}
	if in.Period != nil {
		c.period = in.Period
	}
	if err := workflow.SetQueryHandler(ctx, QueryChallengeSchedule, func() (ChallengeTimerState, error) {
		at, kind := c.next()
		return ChallengeTimerState{ItemID: in.ItemID, Period: c.period, Next: at, NextKind: kind}, nil
	}); err != nil {
		return err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second},
	})
	signals := workflow.GetSignalChannel(ctx, SignalChallengeSchedule)
	var a *ChallengeActivities
	for {
		for {
			var p ChallengePeriod
			if !signals.ReceiveAsync(&p) {
				break
			}
			c.set(p)
		}
		at, kind := c.next()
		if at == nil {
			// No period yet: wait for the first signal.
			var p ChallengePeriod
			signals.Receive(ctx, &p)
			c.set(p)
			continue
		}
		if workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return workflow.NewContinueAsNewError(ctx, ChallengeTimer, ChallengeTimerInput{ItemID: in.ItemID, Period: c.period,
				Announced: c.announced, Reminded: c.reminded})
		}
		timerCtx, cancel := workflow.WithCancel(ctx)
		timer := workflow.NewTimer(timerCtx, max(at.Sub(workflow.Now(ctx)), 0))
		fired := false
		sel := workflow.NewSelector(ctx)
		sel.AddFuture(timer, func(f workflow.Future) { fired = f.Get(ctx, nil) == nil })
		sel.AddReceive(signals, func(ch workflow.ReceiveChannel, _ bool) {
			var p ChallengePeriod
			ch.Receive(ctx, &p)
			c.set(p)
		})
		sel.Select(ctx)
		cancel()
		if !fired {
			continue
		}
		switch kind {
		case ChallengeAnnounce:
			var n int
			if err := workflow.ExecuteActivity(ctx, a.AnnounceChallenge, in.ItemID).Get(ctx, &n); err != nil {
				return err
			}
			c.announced = true
		case ChallengeRemind:
			var n int
			if err := workflow.ExecuteActivity(ctx, a.RemindChallengeEnding, in.ItemID).Get(ctx, &n); err != nil {
				return err
			}
			c.reminded = true
		case ChallengeClose:
			var out CloseChallengeResult
			if err := workflow.ExecuteActivity(ctx, a.CloseChallenge, in.ItemID).Get(ctx, &out); err != nil {
				return err
			}
			if out.LaterEnd == nil {
				return nil
			}
			c.set(ChallengePeriod{StartsAt: c.period.StartsAt, EndsAt: *out.LaterEnd})
		}
	}
}

// WeeklyRankingInput runs the weekly snapshot: the week ending at WeekEnd
// (a Monday 00:00, São Paulo) is snapshot then.
type WeeklyRankingInput struct {
	WeekEnd time.Time
}

// WeeklyChallengeRanking sleeps until the week's end, keeps the week's
// final ranking and tells each ranked member their position, then goes on
// with the next week (continue-as-new keeps its history short).
func WeeklyChallengeRanking(ctx workflow.Context, in WeeklyRankingInput) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	if err := workflow.Sleep(ctx, max(in.WeekEnd.Sub(workflow.Now(ctx)), 0)); err != nil {
		return err
	}
	var a *ChallengeActivities
	var next time.Time
	if err := workflow.ExecuteActivity(ctx, a.SnapshotChallengeWeek, in.WeekEnd).Get(ctx, &next); err != nil {
		return err
	}
	return workflow.NewContinueAsNewError(ctx, WeeklyChallengeRanking, WeeklyRankingInput{WeekEnd: next})
}

// ChallengeActivities run the challenges' side effects through
// core/challenges.
type ChallengeActivities struct {
	Challenges *challenges.Service
}

// CloseChallengeResult is CloseChallenge's answer.
type CloseChallengeResult struct {
	Closed   int
	LaterEnd *time.Time
}

// AnnounceChallenge tells the members of the challenge's specialty it
// started (once).
func (a *ChallengeActivities) AnnounceChallenge(ctx context.Context, itemID string) (int, error) {
	if a.Challenges == nil {
		return 0, errMissingDependency
	}
	return a.Challenges.Announce(ctx, itemID)
}

// RemindChallengeEnding reminds members with unsent answers (once each).
func (a *ChallengeActivities) RemindChallengeEnding(ctx context.Context, itemID string) (int, error) {
	if a.Challenges == nil {
		return 0, errMissingDependency
	}
	return a.Challenges.RemindEnding(ctx, itemID)
}

// CloseChallenge closes the challenge's unsent drafts at its end.
func (a *ChallengeActivities) CloseChallenge(ctx context.Context, itemID string) (CloseChallengeResult, error) {
	if a.Challenges == nil {
		return CloseChallengeResult{}, errMissingDependency
	}
	n, later, err := a.Challenges.Close(ctx, itemID)
	return CloseChallengeResult{Closed: n, LaterEnd: later}, err
}

// SnapshotChallengeWeek snapshots the week that ended at weekEnd and
// returns the next week's end.
func (a *ChallengeActivities) SnapshotChallengeWeek(ctx context.Context, weekEnd time.Time) (time.Time, error) {
	if a.Challenges == nil {
		return time.Time{}, errMissingDependency
	}
	if _, err := a.Challenges.SnapshotWeek(ctx, weekEnd.Add(-time.Hour)); err != nil {
		return time.Time{}, err
	}
	return a.Challenges.WeekStart(weekEnd.Add(time.Hour)).AddDate(0, 0, 7), nil
}

// RegisterChallenges adds the challenges' workflows and activities to w.
func RegisterChallenges(w worker.Registry, acts *ChallengeActivities) {
	w.RegisterWorkflow(ChallengeTimer)
	w.RegisterWorkflow(WeeklyChallengeRanking)
	w.RegisterActivity(acts)
}

// NewChallengeWorker returns a worker for the challenges' timers.
func NewChallengeWorker(c client.Client, acts *ChallengeActivities) worker.Worker {
	w := worker.New(c, ChallengeTaskQueue, worker.Options{})
	RegisterChallenges(w, acts)
	return w
}

// ChallengeTimers starts and signals the challenges' timers on a Temporal
// client; it implements challenges.Timers.
type ChallengeTimers struct {
	Client    client.Client
	TaskQueue string // ChallengeTaskQueue when empty
}

var _ challenges.Timers = (*ChallengeTimers)(nil)

func (t *ChallengeTimers) queue() string {
	if t.TaskQueue == "" {
		return ChallengeTaskQueue
	}
	return t.TaskQueue
}

// Schedule sets or moves the challenge's timer to its period.
func (t *ChallengeTimers) Schedule(ctx context.Context, itemID string, startsAt, endsAt time.Time) error {
	_, err := t.Client.SignalWithStartWorkflow(ctx, ChallengeTimerID(itemID), SignalChallengeSchedule,
		ChallengePeriod{StartsAt: startsAt, EndsAt: endsAt},
		client.StartWorkflowOptions{
			TaskQueue:                t.queue(),
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		}, ChallengeTimer, ChallengeTimerInput{ItemID: itemID})
	if err != nil {
		return fmt.Errorf("challenge timer of %s: %w", itemID, err)
	}
	return nil
}

// StartWeeklyRanking starts the weekly ranking snapshot (once: a running
// one is kept), first for the week ending at weekEnd.
func (t *ChallengeTimers) StartWeeklyRanking(ctx context.Context, weekEnd time.Time) error {
	_, err := t.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WeeklyRankingID,
		TaskQueue:                t.queue(),
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, WeeklyChallengeRanking, WeeklyRankingInput{WeekEnd: weekEnd})
	if err != nil {
		return fmt.Errorf("weekly challenge ranking: %w", err)
	}
	return nil
}
