package workflows

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/storage"
)

type lgpdAccounts struct{}

func (lgpdAccounts) Email(ctx context.Context, userID string) (string, error) {
	return "membro@exemplo.com.br", nil
}
func (lgpdAccounts) CheckPassword(ctx context.Context, userID, pass string) (bool, error) {
	return pass == "certa", nil
}
func (lgpdAccounts) EndAllSessions(ctx context.Context, userID string) error { return nil }

// lgpdCase is the member's data service on PostgreSQL with a clock the
// test moves together with the workflow's, and an eraser that records calls.
type lgpdCase struct {
	env    *testsuite.TestWorkflowEnvironment
	svc    *lgpd.Service
	userID string
	mu     sync.Mutex
	now    time.Time
	erased []string
	store  *storage.Disk
}

func newLGPDCase(t *testing.T) *lgpdCase {
	t.Helper()
	pool := pgtest.New(t)
	c := &lgpdCase{now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)}
	if err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ('membro@exemplo.com.br') RETURNING id::text`).Scan(&c.userID); err != nil {
		t.Fatal(err)
	}
	disk, err := storage.NewDisk(t.TempDir(), "/privado/")
	if err != nil {
		t.Fatal(err)
	}
	c.store = disk
	reg := lgpd.NewRegistry()
	reg.AddArea("perfil", lgpd.ExporterFunc(func(ctx context.Context, userID string) (any, error) {
		return map[string]string{"id": userID}, nil
	}))
	for _, step := range []string{"arquivos", "conta"} {
		reg.AddEraser(step, lgpd.EraserFunc(func(ctx context.Context, userID string) (int64, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.erased = append(c.erased, step)
			return 1, nil
		}))
	}
	c.svc = lgpd.New(pool, lgpd.Options{Registry: reg, Store: disk, Mailer: mail.NewMailbox(pool), Accounts: lgpdAccounts{},
		PublicURL: "http://vetclube.test", TempDir: t.TempDir(), Now: func() time.Time {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.now
		}})
	var s testsuite.WorkflowTestSuite
	c.env = s.NewTestWorkflowEnvironment()
	c.env.SetStartTime(c.now)
	RegisterLGPD(c.env, &LGPDActivities{LGPD: c.svc})
	// The service's clock follows the workflow's (time-skipping).
	c.env.SetOnTimerFiredListener(func(timerID string) {
		c.mu.Lock()
		c.now = c.env.Now()
		c.mu.Unlock()
	})
	return c
}

func (c *lgpdCase) status(t *testing.T, id string) string {
	t.Helper()
	var st string
	reqs, err := c.svc.Requests(context.Background(), c.userID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		if r.ID == id {
			st = r.Status
		}
	}
	return st
}

func TestAccountDeletionRunsAfterThirtyDays(t *testing.T) {
	c := newLGPDCase(t)
	req, err := c.svc.RequestDeletion(context.Background(), c.userID, lgpd.DeletionInput{Password: "certa"})
	if err != nil {
		t.Fatal(err)
	}
	// Day 29: nothing erased yet.
	c.env.RegisterDelayedCallback(func() {
		c.mu.Lock()
		n := len(c.erased)
		c.mu.Unlock()
		if n != 0 {
			t.Errorf("erased before the grace ended: %d steps", n)
		}
	}, 29*24*time.Hour)
	c.env.ExecuteWorkflow(AccountDeletion, AccountDeletionInput{RequestID: req.ID, At: *req.ScheduledFor})
	if err := c.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var out string
	_ = c.env.GetWorkflowResult(&out)
	if out != DeletionDone || len(c.erased) != 2 || c.erased[0] != "arquivos" || c.erased[1] != "conta" {
		t.Fatalf("outcome %s, steps %v", out, c.erased)
	}
	if got := c.env.Now().Sub(*req.ScheduledFor); got < 0 {
		t.Fatalf("ran %s before the end of the grace", -got)
	}
	if st := c.status(t, req.ID); st != lgpd.StatusDone {
		t.Fatalf("status %s", st)
	}
	steps, err := c.svc.Report(context.Background(), req.ID)
	if err != nil || len(steps) != 2 {
		t.Fatalf("report %v %v", steps, err)
	}
}

func TestAccountDeletionCancelledOnDayTen(t *testing.T) {
	c := newLGPDCase(t)
	req, err := c.svc.RequestDeletion(context.Background(), c.userID, lgpd.DeletionInput{Password: "certa"})
	if err != nil {
		t.Fatal(err)
	}
	// The member signs in on day 10: the row is cancelled and the signal sent.
	c.env.RegisterDelayedCallback(func() {
		if _, err := c.svc.CancelDeletion(context.Background(), c.userID, "login"); err != nil {
			t.Error(err)
		}
		c.env.SignalWorkflow(SignalCancelDeletion, nil)
	}, 10*24*time.Hour)
	c.env.ExecuteWorkflow(AccountDeletion, AccountDeletionInput{RequestID: req.ID, At: *req.ScheduledFor})
	var out string
	if err := c.env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if out != DeletionCancelled || len(c.erased) != 0 {
		t.Fatalf("outcome %s, steps %v", out, c.erased)
	}
	if st := c.status(t, req.ID); st != lgpd.StatusCancelled {
		t.Fatalf("status %s", st)
	}
}

func TestAccountDeletionLostSignalStillCancels(t *testing.T) {
	c := newLGPDCase(t)
	req, err := c.svc.RequestDeletion(context.Background(), c.userID, lgpd.DeletionInput{Password: "certa"})
	if err != nil {
		t.Fatal(err)
	}
	// Cancelled in the database, but the signal never arrived.
	if _, err := c.svc.CancelDeletion(context.Background(), c.userID, "login"); err != nil {
		t.Fatal(err)
	}
	c.env.ExecuteWorkflow(AccountDeletion, AccountDeletionInput{RequestID: req.ID, At: *req.ScheduledFor})
	var out string
	if err := c.env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if out != DeletionCancelled || len(c.erased) != 0 {
		t.Fatalf("outcome %s, steps %v", out, c.erased)
	}
}

func TestDataExportBuildsMailsAndExpiresAfterSevenDays(t *testing.T) {
	c := newLGPDCase(t)
	req, err := c.svc.RequestExport(context.Background(), c.userID)
	if err != nil {
		t.Fatal(err)
	}
	// While the link is valid the owner gets the file, others do not.
	c.env.RegisterDelayedCallback(func() {
		if _, _, err := c.svc.ExportFile(context.Background(), c.userID, req.ID); err != nil {
			t.Errorf("day 6: %v", err)
		}
		if _, _, err := c.svc.ExportFile(context.Background(), "00000000-0000-4000-8000-000000000000", req.ID); err == nil {
			t.Error("someone else's export answered")
		}
	}, 6*24*time.Hour)
	c.env.ExecuteWorkflow(DataExport, DataExportInput{RequestID: req.ID})
	if err := c.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if st := c.status(t, req.ID); st != lgpd.StatusExpired {
		t.Fatalf("status after 7 days: %s", st)
	}
	if _, err := c.store.LocalPath("lgpd-exports/" + req.ID + ".zip"); err == nil {
		t.Fatal("the ZIP outlived its link")
	}
	if _, _, err := c.svc.ExportFile(context.Background(), c.userID, req.ID); err == nil {
		t.Fatal("an expired export downloads")
	}
}
