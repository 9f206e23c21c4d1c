package media

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	tusd "github.com/tus/tusd/v2/pkg/handler"
)

// Uploads are served by every instance: each tus request (creation aside)
// holds its upload's lock, a PostgreSQL session advisory lock, for as long
// as it runs, so two instances never write one upload at once. The lock
// lives on a connection taken from the pool for the request: when the
// instance crashes or its connection is lost, PostgreSQL lets go of it.
//
// A request that finds its upload locked asks the holder to let go (tus
// clients resume on a new connection while the old one may still be held
// by a stalled request): the ask reaches the holding instance through
// NOTIFY on tusReleaseChannel, and tusd ends the holder's request.

// tusReleaseChannel carries the upload ids whose lock a waiter asks for.
const tusReleaseChannel = "vc_tus_release"

// lockPoll is how often a waiter tries a held lock again; askEvery is how
// often it repeats its ask to the holder.
const (
	lockPoll = 25 * time.Millisecond
	askEvery = time.Second
)

// tusLockKey, sweepLockKey and sweepRunKey are the advisory lock keys: the
// upload's tus lock, the mark the sweep puts on an upload it is removing,
// and the one sweep run at a time across instances.
const (
	tusLockKey   = `hashtextextended('vc-tus:' || $1::text, 0)`
	sweepLockKey = `hashtextextended('vc-tus-sweep:' || $1::text, 0)`
	sweepRunKey  = `hashtextextended('vc-media-sweep', 0)`
)

// PGLocker is a tusd handler.Locker every instance honours (PostgreSQL
// advisory locks).
type PGLocker struct {
	pool *pgxpool.Pool
	log  *slog.Logger

	mu   sync.Mutex
	held map[string]func() // upload id → its holder's release request, for locks held here

	own    *pgxpool.Pool // the locks' own pool (closed with the locker)
	stop   context.CancelFunc
	done   chan struct{}
	listen chan struct{} // closed once the LISTEN is in place
}

// lockConns is the most upload locks one instance holds at once: each
// held lock keeps a connection for as long as its request runs (a chunk
// may take minutes), so the locks have a pool of their own and never starve
// the application's.
const lockConns = 32

// NewPGLocker starts listening for release requests; Close stops it.
func NewPGLocker(pool *pgxpool.Pool, log *slog.Logger) *PGLocker {
	ctx, cancel := context.WithCancel(context.Background())
	l := &PGLocker{pool: pool, log: log, held: map[string]func(){}, stop: cancel,
		done: make(chan struct{}), listen: make(chan struct{})}
	cfg := pool.Config().Copy()
	cfg.MaxConns, cfg.MinConns = lockConns, 0
	if own, err := pgxpool.NewWithConfig(context.Background(), cfg); err == nil {
		l.pool, l.own = own, own
	} else {
		log.Warn("media: upload lock pool; sharing the application's", "err", err)
	}
	go l.run(ctx)
	return l
}

// UseIn makes composer lock with l.
func (l *PGLocker) UseIn(composer *tusd.StoreComposer) { composer.UseLocker(l) }

// Close stops listening for release requests and closes the locks' pool
// (after every request holding a lock has ended).
func (l *PGLocker) Close() {
	l.stop()
	<-l.done
	if l.own != nil {
		l.own.Close()
	}
}

// run listens for release requests until ctx ends, reconnecting after a
// lost connection.
func (l *PGLocker) run(ctx context.Context) {
	defer close(l.done)
	once := sync.Once{}
	for ctx.Err() == nil {
		err := l.listenOnce(ctx, func() { once.Do(func() { close(l.listen) }) })
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("media: tus release listener", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func (l *PGLocker) listenOnce(ctx context.Context, ready func()) error {
	pooled, err := l.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// A LISTEN connection never goes back to the pool.
	conn := pooled.Hijack()
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+tusReleaseChannel); err != nil {
		return err
	}
	ready()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		l.askLocal(n.Payload)
	}
}

// askLocal asks this instance's holder of id's lock, if any, to let go.
func (l *PGLocker) askLocal(id string) bool {
	l.mu.Lock()
	release := l.held[id]
	l.mu.Unlock()
	if release != nil {
		release()
	}
	return release != nil
}

// NewLock implements tusd's Locker.
func (l *PGLocker) NewLock(id string) (tusd.Lock, error) { return &pgLock{l: l, id: id}, nil }

type pgLock struct {
	l    *PGLocker
	id   string
	conn *pgxpool.Conn
}

// Lock takes the upload's lock, asking its holder (here or on another
// instance) to let go, until ctx ends (then tusd.ErrLockTimeout).
func (k *pgLock) Lock(ctx context.Context, requestRelease func()) error {
	conn, err := k.l.pool.Acquire(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return tusd.ErrLockTimeout
		}
		return fmt.Errorf("media: tus lock connection: %w", err)
	}
	var lastAsk time.Time
	for {
		var ok bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(`+tusLockKey+`)`, k.id).Scan(&ok); err != nil {
			discard(conn)
			if ctx.Err() != nil {
				return tusd.ErrLockTimeout
			}
			return fmt.Errorf("media: tus lock %s: %w", k.id, err)
		}
		if ok {
			k.conn = conn
			k.l.mu.Lock()
			k.l.held[k.id] = requestRelease
			k.l.mu.Unlock()
			return nil
		}
		if time.Since(lastAsk) >= askEvery {
			lastAsk = time.Now()
			if !k.l.askLocal(k.id) {
				if _, err := conn.Exec(ctx, `SELECT pg_notify($1, $2)`, tusReleaseChannel, k.id); err != nil && ctx.Err() == nil {
					k.l.log.Warn("media: ask for tus lock", "upload", k.id, "err", err)
				}
			}
		}
		select {
		case <-ctx.Done():
			conn.Release()
			return tusd.ErrLockTimeout
		case <-time.After(lockPoll):
		}
	}
}

// Unlock lets go of the lock. A connection whose unlock fails is closed,
// which lets go of it too.
func (k *pgLock) Unlock() error {
	k.l.mu.Lock()
	delete(k.l.held, k.id)
	k.l.mu.Unlock()
	conn := k.conn
	k.conn = nil
	if conn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_advisory_unlock(`+tusLockKey+`)`, k.id).Scan(&ok); err != nil || !ok {
		discard(conn)
		if err == nil {
			err = errors.New("not held")
		}
		return fmt.Errorf("media: tus unlock %s: %w", k.id, err)
	}
	conn.Release()
	return nil
}

// discard closes a pooled connection (any session lock on it goes with it)
// and hands it back, so the pool drops it.
func discard(conn *pgxpool.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Conn().Close(ctx)
	conn.Release()
}

// sweepHold is the sweep's hold on one upload: its tus lock (taken without
// asking anyone to let go: a running request keeps its upload) and the
// sweep mark, which turns chunks away before they wait for the lock.
type sweepHold struct{ conn *pgxpool.Conn }

// holdForSweep takes uploadID for the sweep; ok is false while any
// instance serves a tus request on it.
func holdForSweep(ctx context.Context, pool *pgxpool.Pool, uploadID string) (h sweepHold, ok bool, err error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return h, false, fmt.Errorf("media: sweep lock connection: %w", err)
	}
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(`+tusLockKey+`)`, uploadID).Scan(&ok); err != nil {
		discard(conn)
		return h, false, fmt.Errorf("media: sweep lock %s: %w", uploadID, err)
	}
	if !ok {
		conn.Release()
		return h, false, nil
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(`+sweepLockKey+`)`, uploadID); err != nil {
		discard(conn)
		return h, false, fmt.Errorf("media: sweep mark %s: %w", uploadID, err)
	}
	return sweepHold{conn: conn}, true, nil
}

func (h sweepHold) release() {
	// Both session locks go with the connection's session: unlocking all
	// is what this connection held.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := h.conn.Exec(ctx, `SELECT pg_advisory_unlock_all()`); err != nil {
		discard(h.conn)
		return
	}
	h.conn.Release()
}

// beingSwept reports whether the sweep holds uploadID (on any instance).
func beingSwept(ctx context.Context, pool *pgxpool.Pool, uploadID string) (bool, error) {
	var free bool
	// A transaction-level shared lock taken and let go by the one statement:
	// it is refused only while the sweep holds its exclusive mark.
	err := pool.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock_shared(`+sweepLockKey+`)`, uploadID).Scan(&free)
	if err != nil {
		return false, fmt.Errorf("media: sweep mark of %s: %w", uploadID, err)
	}
	return !free, nil
}

// sweepRun is the one abandoned-upload sweep running across instances.
type sweepRun struct{ conn *pgxpool.Conn }

// startSweepRun is ok=false while another instance sweeps.
func startSweepRun(ctx context.Context, pool *pgxpool.Pool) (r sweepRun, ok bool, err error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return r, false, fmt.Errorf("media: sweep run connection: %w", err)
	}
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(`+sweepRunKey+`)`).Scan(&ok); err != nil {
		discard(conn)
		return r, false, fmt.Errorf("media: sweep run lock: %w", err)
	}
	if !ok {
		conn.Release()
		return r, false, nil
	}
	return sweepRun{conn: conn}, true, nil
}

func (r sweepRun) end() { sweepHold(r).release() }
