package auth_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// Sessions started at once, more of them than the pool has connections,
// right after the service starts: each holds a connection in its
// transaction while it derives the CSRF token, so that derivation must
// never wait for another connection (it once did, loading the secret
// lazily, and every session waited forever).
func TestConcurrentSessionsOnASmallPoolNeverDeadlock(t *testing.T) {
	url := pgtest.NewURL(t)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pool, err := postgres.Open(ctx, url+sep+"pool_max_conns=2")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	svc, err := auth.New(pool, mail.NewMailbox(pool), auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	ids := make([]string, n)
	for i := range ids {
		if err := pool.QueryRow(ctx, `INSERT INTO users (email, email_confirmed_at) VALUES ($1, now()) RETURNING id::text`,
			fmt.Sprintf("pool-%d@example.com", i)).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for _, id := range ids {
		wg.Go(func() {
			tok, err := svc.StartSession(ctx, id, "test")
			if err == nil && tok.CSRF == "" {
				err = fmt.Errorf("session %s has no CSRF token", id)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a session did not start (a deadlock ends at the 60 s context): %v", err)
		}
	}
}
