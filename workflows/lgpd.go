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

	"github.com/vetclube/vetclube/core/lgpd"
)

// LGPDTaskQueue is the member's data workflows' queue (its own worker, so
// building a large export never delays the other timers).
const LGPDTaskQueue = "vetclube-lgpd"

// SignalCancelDeletion tells a waiting deletion that the member signed in
// (or cancelled it).
const SignalCancelDeletion = "cancel-deletion"

// Workflow ids: one per request.
func DataExportID(requestID string) string      { return "lgpd-export/" + requestID }
func AccountDeletionID(requestID string) string { return "lgpd-deletion/" + requestID }

// LGPDActivities are the member's data steps; each is idempotent (the
// request row records progress, and erasers find nothing left on a retry).
type LGPDActivities struct {
	LGPD *lgpd.Service
}

func (a *LGPDActivities) svc() (*lgpd.Service, error) {
	if a == nil || a.LGPD == nil {
		return nil, errMissingDependency
	}
	return a.LGPD, nil
}

// BuildExport builds the ZIP of one export request.
func (a *LGPDActivities) BuildExport(ctx context.Context, requestID string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.BuildExport(ctx, requestID)
}

// MailExport e-mails the export's link, once.
func (a *LGPDActivities) MailExport(ctx context.Context, requestID string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.MailExport(ctx, requestID)
}

// ExpireExport removes the ZIP once its link expired.
func (a *LGPDActivities) ExpireExport(ctx context.Context, requestID string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.ExpireExport(ctx, requestID)
}

// BeginDeletion re-reads the request: true only for a deletion whose grace
// ended without a cancellation.
func (a *LGPDActivities) BeginDeletion(ctx context.Context, requestID string) (bool, error) {
	s, err := a.svc()
	if err != nil {
		return false, err
	}
	return s.BeginDeletion(ctx, requestID)
}

// DeletionSteps lists the steps to run, in order.
func (a *LGPDActivities) DeletionSteps(ctx context.Context) ([]string, error) {
	s, err := a.svc()
	if err != nil {
		return nil, err
	}
	return s.DeletionSteps(), nil
}

// EraseStep runs one deletion step.
func (a *LGPDActivities) EraseStep(ctx context.Context, requestID, step string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.EraseStep(ctx, requestID, step)
}

// FinishDeletion records the deletion done.
func (a *LGPDActivities) FinishDeletion(ctx context.Context, requestID string) error {
	s, err := a.svc()
	if err != nil {
		return err
	}
	return s.FinishDeletion(ctx, requestID)
}

func lgpdActivityOptions(ctx workflow.Context, timeout time.Duration) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: timeout,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    5 * time.Minute,
			MaximumAttempts:    50,
		},
	})
}

// DataExportInput names one export request.
type DataExportInput struct {
	RequestID string
}

// DataExport builds the member's ZIP, e-mails its link, and removes the
// file when the link expires (lgpd.ExportLinkTTL).
func DataExport(ctx workflow.Context, in DataExportInput) error {
	var a *LGPDActivities
	actx := lgpdActivityOptions(ctx, 10*time.Minute)
	if err := workflow.ExecuteActivity(actx, a.BuildExport, in.RequestID).Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.ExecuteActivity(lgpdActivityOptions(ctx, time.Minute), a.MailExport, in.RequestID).Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.Sleep(ctx, lgpd.ExportLinkTTL); err != nil {
		return err
	}
	return workflow.ExecuteActivity(lgpdActivityOptions(ctx, time.Minute), a.ExpireExport, in.RequestID).Get(ctx, nil)
}

// AccountDeletionInput names one deletion and the end of its grace.
type AccountDeletionInput struct {
	RequestID string
	At        time.Time
}

// Deletion outcomes.
const (
	DeletionDone      = "concluida"
	DeletionCancelled = "cancelada"
)

// AccountDeletion waits for the grace to end (a durable timer) unless the
// cancel signal arrives, re-reads the request (a cancellation whose signal
// was lost still counts), then runs every step and records the report.
func AccountDeletion(ctx workflow.Context, in AccountDeletionInput) (string, error) {
	cancelled := false
	signals := workflow.GetSignalChannel(ctx, SignalCancelDeletion)
	workflow.Go(ctx, func(ctx workflow.Context) {
		signals.Receive(ctx, nil)
		cancelled = true
	})
	if wait := in.At.Sub(workflow.Now(ctx)); wait > 0 {
		if _, err := workflow.AwaitWithTimeout(ctx, wait, func() bool { return cancelled }); err != nil {
			return "", err
		}
	}
	if cancelled {
		return DeletionCancelled, nil
	}
	var a *LGPDActivities
	actx := lgpdActivityOptions(ctx, 2*time.Minute)
	var proceed bool
	if err := workflow.ExecuteActivity(actx, a.BeginDeletion, in.RequestID).Get(ctx, &proceed); err != nil {
		return "", err
	}
	if !proceed {
		return DeletionCancelled, nil
	}
	var steps []string
	if err := workflow.ExecuteActivity(actx, a.DeletionSteps).Get(ctx, &steps); err != nil {
		return "", err
	}
	for _, step := range steps {
		if err := workflow.ExecuteActivity(actx, a.EraseStep, in.RequestID, step).Get(ctx, nil); err != nil {
			return "", err
		}
	}
	if err := workflow.ExecuteActivity(actx, a.FinishDeletion, in.RequestID).Get(ctx, nil); err != nil {
		return "", err
	}
	return DeletionDone, nil
}

// RegisterLGPD registers the member's data workflows and activities on w.
func RegisterLGPD(w worker.Registry, acts *LGPDActivities) {
	w.RegisterWorkflow(DataExport)
	w.RegisterWorkflow(AccountDeletion)
	w.RegisterActivity(acts)
}

// NewLGPDWorker returns a worker for LGPDTaskQueue.
func NewLGPDWorker(c client.Client, acts *LGPDActivities) worker.Worker {
	w := worker.New(c, LGPDTaskQueue, worker.Options{})
	RegisterLGPD(w, acts)
	return w
}

// LGPDEngine implements lgpd.Workflows on a Temporal client.
type LGPDEngine struct {
	Client client.Client
}

var _ lgpd.Workflows = LGPDEngine{}

// StartExport starts the export's workflow (a duplicate start is harmless).
func (e LGPDEngine) StartExport(ctx context.Context, requestID string) error {
	_, err := e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: DataExportID(requestID), TaskQueue: LGPDTaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, DataExport, DataExportInput{RequestID: requestID})
	return started(err)
}

// StartDeletion starts the deletion's grace timer.
func (e LGPDEngine) StartDeletion(ctx context.Context, requestID string, at time.Time) error {
	_, err := e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: AccountDeletionID(requestID), TaskQueue: LGPDTaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, AccountDeletion, AccountDeletionInput{RequestID: requestID, At: at})
	return started(err)
}

// CancelDeletion signals the deletion's workflow; one already finished is fine.
func (e LGPDEngine) CancelDeletion(ctx context.Context, requestID string) error {
	err := e.Client.SignalWorkflow(ctx, AccountDeletionID(requestID), "", SignalCancelDeletion, nil)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return nil
	}
	return err
}
