package auth_test

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// clock is a settable time source shared by the service and its limiter.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a service on a fresh database with a controllable clock.
type fixture struct {
	svc   *auth.Service
	pool  *pgxpool.Pool
	box   *mail.Mailbox
	clock *clock
}

// newFixture starts the clock at 2026-03-10 12:00:00 UTC (09:00 in São Paulo).
func newFixture(t testing.TB, tweak func(*auth.Options)) *fixture {
	t.Helper()
	pool := pgtest.New(t)
	clk := &clock{t: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
	box := mail.NewMailbox(pool)
	opts := auth.Options{PublicURL: "http://127.0.0.1:8080", Now: clk.Now}
	if tweak != nil {
		tweak(&opts)
	}
	svc, err := auth.New(pool, box, opts)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{svc: svc, pool: pool, box: box, clock: clk}
}

// lastLink returns the token of the newest emailed link to email whose path is path.
func (f *fixture) lastToken(t *testing.T, email, path string) string {
	t.Helper()
	f.drain(t)
	msgs, err := f.box.List(context.Background(), email, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		for _, l := range m.Links {
			u, err := url.Parse(l)
			if err == nil && u.Path == path && u.Query().Get("token") != "" {
				return u.Query().Get("token")
			}
		}
	}
	t.Fatalf("no %s link mailed to %s (%d messages)", path, email, len(msgs))
	return ""
}

func (f *fixture) mailCount(t *testing.T, email string) int {
	t.Helper()
	f.drain(t)
	msgs, err := f.box.List(context.Background(), email, 100)
	if err != nil {
		t.Fatal(err)
	}
	return len(msgs)
}

// signupConfirmed signs up and confirms through the emailed link.
func (f *fixture) signupConfirmed(t *testing.T, email, pass string) {
	t.Helper()
	ctx := context.Background()
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "Ana", LastName: "Souza", Email: email, Password: pass}, "10.0.0.1"); err != nil {
		t.Fatalf("signup %s: %v", email, err)
	}
	if err := f.svc.Confirm(ctx, f.lastToken(t, email, "/confirmar-email")); err != nil {
		t.Fatalf("confirm %s: %v", email, err)
	}
}

// wantErr checks err's code and message.
func wantErr(t *testing.T, err error, code, message string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s %q", code, message)
	}
	if core.ErrorCode(err) != code || core.ErrorMessage(err) != message {
		t.Fatalf("error %s %q, want %s %q (%v)", core.ErrorCode(err), core.ErrorMessage(err), code, message, err)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// drain sends the account emails requests have queued, as the service's
// background loop does (requests only queue them).
func (f *fixture) drain(t testing.TB) {
	t.Helper()
	if err := f.svc.ProcessMailRequests(context.Background()); err != nil {
		t.Fatalf("process mail requests: %v", err)
	}
}
