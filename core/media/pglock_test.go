package media

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	tusd "github.com/tus/tusd/v2/pkg/handler"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// twoInstances returns two pools on one database, as two instances have.
func twoInstances(t *testing.T) (*pgxpool.Pool, *pgxpool.Pool) {
	t.Helper()
	url := pgtest.NewURL(t)
	var pools [2]*pgxpool.Pool
	for i := range pools {
		p, err := pgxpool.New(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		pools[i] = p
	}
	return pools[0], pools[1]
}

func newLocker(t *testing.T, pool *pgxpool.Pool) *PGLocker {
	t.Helper()
	l := NewPGLocker(pool, slog.New(slog.DiscardHandler))
	t.Cleanup(l.Close)
	select {
	case <-l.listen:
	case <-time.After(10 * time.Second):
		t.Fatal("the release listener never started")
	}
	return l
}

func lockWithin(t *testing.T, l *PGLocker, id string, d time.Duration, release func()) (tusd.Lock, error) {
	t.Helper()
	lk, _ := l.NewLock(id)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return lk, lk.Lock(ctx, release)
}

// One upload's lock is held by one instance at a time; a waiter on another
// instance asks the holder to let go (tusd ends the holder's request), and
// gets the lock once it has; a holder that keeps it makes the waiter time out.
func TestUploadLockIsHonouredAcrossInstances(t *testing.T) {
	a, b := twoInstances(t)
	la, lb := newLocker(t, a), newLocker(t, b)

	held, err := lockWithin(t, la, "up1", time.Second, func() {})
	if err != nil {
		t.Fatal(err)
	}
	// Another upload is free meanwhile.
	other, err := lockWithin(t, lb, "up2", time.Second, func() {})
	if err != nil {
		t.Fatalf("another upload's lock: %v", err)
	}
	if err := other.Unlock(); err != nil {
		t.Fatal(err)
	}
	// The holder ignores the ask: the waiter times out without the lock.
	start := time.Now()
	if _, err := lockWithin(t, lb, "up1", 300*time.Millisecond, func() {}); !errors.Is(err, tusd.ErrLockTimeout) {
		t.Fatalf("lock held elsewhere: %v", err)
	}
	if time.Since(start) < 250*time.Millisecond {
		t.Fatal("the waiter gave up before its deadline")
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}

	// The holder lets go when asked (as tusd does, by ending its request).
	asked := make(chan struct{}, 1)
	var again tusd.Lock
	again, err = lockWithin(t, la, "up1", time.Second, func() {
		select {
		case asked <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		<-asked
		_ = again.Unlock()
	}()
	start = time.Now()
	got, err := lockWithin(t, lb, "up1", 5*time.Second, func() {})
	if err != nil {
		t.Fatalf("the waiter never got the lock its holder was asked for: %v", err)
	}
	t.Logf("lock handed over between instances in %s", time.Since(start))
	if err := got.Unlock(); err != nil {
		t.Fatal(err)
	}
}

// An instance that crashes or loses its database connection while holding
// an upload's lock lets go of it: PostgreSQL ends the session's locks.
func TestUploadLockIsReleasedWhenItsConnectionIsLost(t *testing.T) {
	a, b := twoInstances(t)
	la, lb := newLocker(t, a), newLocker(t, b)
	held, err := lockWithin(t, la, "up1", time.Second, func() {})
	if err != nil {
		t.Fatal(err)
	}
	pid := held.(*pgLock).conn.Conn().PgConn().PID()
	var killed bool
	if err := b.QueryRow(context.Background(), `SELECT pg_terminate_backend($1)`, pid).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the holder's session: %v %v", killed, err)
	}
	got, err := lockWithin(t, lb, "up1", 5*time.Second, func() {})
	if err != nil {
		t.Fatalf("lock of a lost session: %v", err)
	}
	if err := got.Unlock(); err != nil {
		t.Fatal(err)
	}
	// The dead holder's unlock reports the loss and leaves nothing behind.
	if err := held.Unlock(); err == nil {
		t.Fatal("unlock on a lost connection reported success")
	}
	last, err := lockWithin(t, la, "up1", time.Second, func() {})
	if err != nil {
		t.Fatalf("lock after the lost holder's unlock: %v", err)
	}
	if err := last.Unlock(); err != nil {
		t.Fatal(err)
	}
}

// The sweep never takes an upload a tus request holds (on any instance),
// and while it holds one, chunks are told at once; one sweep runs at a time.
func TestSweepAndChunksMeetThroughTheDatabase(t *testing.T) {
	a, b := twoInstances(t)
	ctx := context.Background()
	la := newLocker(t, a)
	held, err := lockWithin(t, la, "up1", time.Second, func() { t.Error("the sweep asked a running request to stop") })
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := holdForSweep(ctx, b, "up1"); err != nil || ok {
		t.Fatalf("the sweep took an upload a request holds: %v %v", ok, err)
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	hold, ok, err := holdForSweep(ctx, b, "up1")
	if err != nil || !ok {
		t.Fatalf("the sweep could not take an idle upload: %v %v", ok, err)
	}
	if swept, err := beingSwept(ctx, a, "up1"); err != nil || !swept {
		t.Fatalf("the sweep's mark is not seen by the other instance: %v %v", swept, err)
	}
	if swept, err := beingSwept(ctx, a, "up2"); err != nil || swept {
		t.Fatalf("another upload looks swept: %v %v", swept, err)
	}
	if _, ok, _ := holdForSweep(ctx, a, "up1"); ok {
		t.Fatal("two sweeps held one upload")
	}
	hold.release()
	if swept, err := beingSwept(ctx, a, "up1"); err != nil || swept {
		t.Fatalf("the mark outlived the sweep: %v %v", swept, err)
	}

	run, ok, err := startSweepRun(ctx, a)
	if err != nil || !ok {
		t.Fatalf("first sweep run: %v %v", ok, err)
	}
	if _, ok, err := startSweepRun(ctx, b); err != nil || ok {
		t.Fatalf("a second instance swept at the same time: %v %v", ok, err)
	}
	run.end()
	if again, ok, err := startSweepRun(ctx, b); err != nil || !ok {
		t.Fatalf("sweep run after the first ended: %v %v", ok, err)
	} else {
		again.end()
	}
}

// A chunk for an upload the sweep holds is turned away with 423 and the
// reason in pt-BR, before tusd sees it.
func TestPatchDuringSweepIsAnsweredLocked(t *testing.T) {
	pool := pgtest.New(t)
	s := &Service{pool: pool, in: &DiskIncoming{dir: t.TempDir()}, log: slog.New(slog.DiscardHandler)}
	h, err := s.UploadHandler()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	hold, ok, err := holdForSweep(context.Background(), pool, "abc123")
	if err != nil || !ok {
		t.Fatalf("the sweep could not take an idle upload: %v %v", ok, err)
	}
	defer hold.release()
	req := httptest.NewRequest("PATCH", UploadsPath+"abc123", strings.NewReader("bytes"))
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", "0")
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body httpx.ErrorBody
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != http.StatusLocked || body.Error.Code != core.ELOCKED || body.Error.Message != MsgUploadExpiring {
		t.Fatalf("PATCH during the sweep: %d %s", rec.Code, rec.Body)
	}
}
