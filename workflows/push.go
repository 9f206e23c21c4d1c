package workflows

import (
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/push"
)

// PushTaskQueue is the Web Push delivery queue: its own worker, so a fan-out
// to every member never delays a streak bonus or a trial clock.
const PushTaskQueue = "vetclube-push"

// PushDeliveryID is the workflow id of one push message's delivery.
func PushDeliveryID(messageID string) string { return "push/" + messageID }

// PushDeliveryInput names the message to deliver.
type PushDeliveryInput struct {
	MessageID string
}

const (
	// pushLanes is how many batch activities run at once on a large
	// fan-out (each with push.Options.Concurrency sends in flight).
	pushLanes = 4
	// pushRoundsPerRun bounds the history before continue-as-new.
	pushRoundsPerRun = 200
)

// PushDelivery delivers one push message to every device it was enqueued
// for. Each round runs batch activities that send what is due; retries
// (429/5xx with backoff and Retry-After) and pushes held by quiet hours are
// rows with a later next_attempt_at, so the workflow sleeps until the
// earliest and goes again. State lives in push_deliveries, not in the
// history: a worker restart resumes where the rows say, and the rows'
// claims and statuses keep every device to one send.
func PushDelivery(ctx workflow.Context, in PushDeliveryInput) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		// A worker that dies mid-batch is noticed within this; the batch
		// then runs again elsewhere and skips what was recorded.
		HeartbeatTimeout: 15 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
		},
	})
	var a *PushActivities
	lanes := 1
	for round := 0; round < pushRoundsPerRun; round++ {
		futures := make([]workflow.Future, lanes)
		for i := range futures {
			futures[i] = workflow.ExecuteActivity(ctx, a.DeliverPushBatch, in.MessageID)
		}
		var more bool
		var wait time.Duration
		for _, f := range futures {
			var p push.Progress
			if err := f.Get(ctx, &p); err != nil {
				return err
			}
			more = more || p.More
			if p.Wait > 0 && (wait == 0 || p.Wait < wait) {
				wait = p.Wait
			}
		}
		// A lane that ran dry while its sibling lanes still held claims
		// reports those claims' expiry as a wait; the siblings have finished
		// by now, so one lane looks again at once instead of sleeping out a
		// claim that was already settled.
		recheck := workflow.GetVersion(ctx, "push-recheck-after-lanes", workflow.DefaultVersion, 1) == 1
		switch {
		case more:
			lanes = pushLanes
		case wait > 0 && lanes > 1 && recheck:
			lanes = 1
		case wait > 0:
			lanes = 1
			if err := workflow.Sleep(ctx, wait); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return workflow.NewContinueAsNewError(ctx, PushDelivery, in)
}

// PushActivities send pushes.
type PushActivities struct {
	Push *push.Service
	// BatchSize is how many deliveries one activity sends at most (2,000).
	BatchSize int
}

// DeliverPushBatch sends the message's due deliveries, heartbeating as it goes.
func (a *PushActivities) DeliverPushBatch(ctx context.Context, messageID string) (push.Progress, error) {
	if a.Push == nil {
		return push.Progress{}, errors.New("workflows: push service not configured")
	}
	size := a.BatchSize
	if size <= 0 {
		size = 2000
	}
	// A stopping worker finishes the sends in flight and records them, but
	// claims no more: the batch fails, and its retry on another worker
	// carries on from the recorded rows.
	run, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		// Heartbeats also while one slow push service holds a chunk.
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-activity.GetWorkerStopChannel(ctx):
				cancel()
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx)
			case <-run.Done():
				return
			}
		}
	}()
	return a.Push.DeliverDue(run, messageID, size, func(sent int) { activity.RecordHeartbeat(ctx, sent) })
}

// NewPushWorker returns a worker for PushTaskQueue.
func NewPushWorker(c client.Client, acts *PushActivities) worker.Worker {
	w := worker.New(c, PushTaskQueue, worker.Options{
		MaxConcurrentActivityExecutionSize: pushLanes * 2,
		// Lets in-flight sends finish and be recorded on a graceful stop.
		WorkerStopTimeout: 30 * time.Second,
	})
	w.RegisterWorkflow(PushDelivery)
	w.RegisterActivity(acts)
	return w
}

// StartPushDelivery starts (or joins) the delivery workflow of a message; it
// implements push.Starter.
func (e Engine) StartPushDelivery(ctx context.Context, messageID string) error {
	_, err := e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       PushDeliveryID(messageID),
		TaskQueue:                PushTaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, PushDelivery, PushDeliveryInput{MessageID: messageID})
	return started(err)
}
