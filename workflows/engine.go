package workflows

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/points"
)

// Dial connects to a Temporal cluster.
func Dial(ctx context.Context, address, namespace string, log *slog.Logger) (client.Client, error) {
	c, err := client.DialContext(ctx, client.Options{
		HostPort:  address,
		Namespace: namespace,
		Logger:    sdklog.NewStructuredLogger(log.With("component", "temporal")),
	})
	if err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w", address, err)
	}
	return c, nil
}

// NewWorker returns a worker for every VetClube workflow and activity.
func NewWorker(c client.Client, acts *Activities) worker.Worker {
	w := worker.New(c, TaskQueue, worker.Options{})
	w.RegisterWorkflow(StreakBonus)
	w.RegisterWorkflow(StreakReminderSweep)
	// StreakReminder is the retired per-user loop, kept so loops running
	// from before the sweep end cleanly.
	w.RegisterWorkflow(StreakReminder)
	// Trial is the former trial clock, kept so clocks already running finish.
	w.RegisterWorkflow(Trial)
	w.RegisterWorkflow(Entitlement)
	w.RegisterActivity(acts)
	return w
}

// NewPublishingWorker returns a worker for the content publication timers
// (ContentTaskQueue), started apart from NewWorker's once the content
// services exist.
func NewPublishingWorker(c client.Client, acts *PublishingActivities) worker.Worker {
	w := worker.New(c, ContentTaskQueue, worker.Options{})
	RegisterPublishing(w, acts)
	return w
}

// Engine starts and signals workflows for the domain services: it implements
// checkin.Workflows and subscriptions.Workflows on a Temporal client.
type Engine struct {
	Client client.Client
}

func started(err error) error {
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return nil
	}
	return err
}

// StartStreakBonus starts the bonus workflow for one completed streak. Its id
// rejects duplicates forever, so a streak is paid at most once.
func (e Engine) StartStreakBonus(ctx context.Context, _ points.Querier, userID string, streakDate checkin.Date) error {
	_, err := e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                    StreakBonusID(userID, streakDate.String()),
		TaskQueue:             TaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, StreakBonus, StreakBonusInput{UserID: userID, StreakDate: streakDate.String()})
	return started(err)
}

// EnsureStreakReminderSweep starts the deployment's reminder sweep unless it
// runs already (every worker start calls it; one that ended or failed starts
// again).
func EnsureStreakReminderSweep(ctx context.Context, c client.Client, in ReminderSweepInput) error {
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       StreakReminderSweepID,
		TaskQueue:                TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, StreakReminderSweep, in)
	return started(err)
}

// SignalEntitlement starts the member's Entitlement workflow unless it runs
// and tells it the subscriber row changed (SignalWithStart: a duplicate
// start is harmless, a finished workflow starts again).
func (e Engine) SignalEntitlement(ctx context.Context, userID string, observedAt time.Time) error {
	_, err := e.Client.SignalWithStartWorkflow(ctx, EntitlementID(userID), SignalEntitlement,
		EntitlementSignal{ObservedAt: observedAt}, client.StartWorkflowOptions{
			ID:                    EntitlementID(userID),
			TaskQueue:             TaskQueue,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		}, Entitlement, EntitlementInput{UserID: userID})
	return err
}
