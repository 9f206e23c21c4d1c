package workflows

import (
	"cmp"
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/toolschedule"
)

// ToolScheduleTaskQueue is the queue of the tools' scheduled notifications
// (its own worker, so a burst of due reminders never delays other timers).
const ToolScheduleTaskQueue = "vetclube-tool-notifications"

// ToolNotificationSweepID is the one sweep workflow of the deployment: a
// single id means a single sweeper, whichever instances run workers.
const ToolNotificationSweepID = "tool-notifications-sweep"

// toolSweepBatch is how many due notifications one activity delivers.
const toolSweepBatch = 500

// ToolScheduleActivities deliver the tools' scheduled notifications.
type ToolScheduleActivities struct {
	Schedule *toolschedule.Service
}

// ToolSweepResult is one sweep's outcome.
type ToolSweepResult struct {
	Delivered int
	// Next is the earliest moment still pending (zero: none).
	Next time.Time
}

// DeliverDueToolNotifications delivers what is due at now (the workflow's
// clock, so time-skipping tests control it). Each row is delivered once
// (toolschedule.DeliverDue), so a retried activity is harmless.
func (a *ToolScheduleActivities) DeliverDueToolNotifications(ctx context.Context, now time.Time) (ToolSweepResult, error) {
	if a.Schedule == nil {
		return ToolSweepResult{}, errors.New("tool notifications: no schedule service")
	}
	n, next, err := a.Schedule.DeliverDue(ctx, now, toolSweepBatch)
	return ToolSweepResult{Delivered: n, Next: next}, err
}

// ToolSweepInput configures the sweep.
type ToolSweepInput struct {
	// Every is the longest wait between sweeps (default one minute): a
	// notification scheduled for sooner than the next known moment is
	// delivered at most this late.
	Every time.Duration
	// Rounds before continuing as new (default 240).
	Rounds int
}

// ToolNotificationSweep delivers the tools' scheduled notifications when
// they fall due: each round sweeps, then sleeps until the next pending
// moment or Every, whichever comes first. It never ends (continues as new).
func ToolNotificationSweep(ctx workflow.Context, in ToolSweepInput) error {
	var acts *ToolScheduleActivities
	err := sweepRounds(ctx, cmp.Or(in.Every, time.Minute), cmp.Or(in.Rounds, 240), "deliver tool notifications",
		func(actx workflow.Context) (bool, time.Time, error) {
			var res ToolSweepResult
			err := workflow.ExecuteActivity(actx, acts.DeliverDueToolNotifications, workflow.Now(ctx)).Get(actx, &res)
			return res.Delivered == toolSweepBatch, res.Next, err
		})
	if err != nil {
		return err
	}
	return workflow.NewContinueAsNewError(ctx, ToolNotificationSweep, in)
}

// sweepRounds runs rounds of a deployment-wide sweep: each round calls
// sweep (with activity options for a sweep's activity), then sleeps until
// the next pending moment or every, whichever comes first; at once (a
// second) when the round filled a whole batch; every after a failed round,
// whose rows are still pending for the next one.
func sweepRounds(ctx workflow.Context, every time.Duration, rounds int, what string,
	sweep func(actx workflow.Context) (full bool, next time.Time, err error)) error {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
			MaximumAttempts:    5,
		},
	})
	for range rounds {
		full, next, err := sweep(actx)
		wait := every
		switch {
		case err != nil:
			workflow.GetLogger(ctx).Warn(what, "err", err)
		case full:
			wait = time.Second // more are due: go on at once
		case !next.IsZero():
			if d := next.Sub(workflow.Now(ctx)); d < wait {
				wait = max(d, time.Second)
			}
		}
		if err := workflow.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	return nil
}

// RegisterToolSchedule registers the sweep and its activity on w.
func RegisterToolSchedule(w worker.Registry, acts *ToolScheduleActivities) {
	w.RegisterWorkflow(ToolNotificationSweep)
	w.RegisterActivity(acts)
}

// NewToolScheduleWorker returns a worker for ToolScheduleTaskQueue.
func NewToolScheduleWorker(c client.Client, acts *ToolScheduleActivities) worker.Worker {
	w := worker.New(c, ToolScheduleTaskQueue, worker.Options{})
	RegisterToolSchedule(w, acts)
	return w
}

// EnsureToolNotificationSweep starts the sweep unless it runs already
// (every worker start calls it; one that ended or failed starts again).
func EnsureToolNotificationSweep(ctx context.Context, c client.Client, in ToolSweepInput) error {
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: ToolNotificationSweepID, TaskQueue: ToolScheduleTaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, ToolNotificationSweep, in)
	return started(err)
}
