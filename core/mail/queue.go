package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Queue is the Mailer requests use: Send only stores the message in the
// mail_outbox table, and a worker (StartWorker) delivers it through the real
// sender. A request therefore never waits on SMTP, and how long it takes does
// not reveal whether it sent an email (whether an account exists).
type Queue struct {
	pool *pgxpool.Pool
	kick chan struct{}
}

// NewQueue returns a queue storing through pool.
func NewQueue(pool *pgxpool.Pool) *Queue {
	return &Queue{pool: pool, kick: make(chan struct{}, 1)}
}

// Send queues m for delivery.
func (q *Queue) Send(ctx context.Context, m Message) error {
	if _, err := q.pool.Exec(ctx, `INSERT INTO mail_outbox (recipient, subject, text_body, html_body)
		VALUES ($1, $2, $3, $4)`, m.To, m.Subject, m.Text, m.HTML); err != nil {
		return fmt.Errorf("queue mail to %s: %w", m.To, err)
	}
	// Wakes this process's worker at once; other instances' workers find the
	// row on their next poll.
	select {
	case q.kick <- struct{}{}:
	default:
	}
	return nil
}

// Delivery retry policy: attempt n (1-based) failing waits
// min(RetryBase·2^(n-1), RetryMax) before the next; after MaxAttempts the
// message is marked failed and left for inspection.
const (
	MaxAttempts = 8
	RetryBase   = 30 * time.Second
	RetryMax    = time.Hour
)

// ErrQueueEmpty means no message is due.
var ErrQueueEmpty = errors.New("no mail due")

// DeliverOne claims the oldest due message, sends it through sender and
// records the outcome. The row stays locked (FOR UPDATE SKIP LOCKED) while
// it is sent, so another worker on any instance skips it and a message is
// delivered once. It returns ErrQueueEmpty when nothing is due, and the send
// error (already recorded for a retry) when delivery failed.
func (q *Queue) DeliverOne(ctx context.Context, sender Mailer) error {
	tx, err := q.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("mail queue: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	var id int64
	var attempts int
	var m Message
	err = tx.QueryRow(ctx, `SELECT id, attempts, recipient, subject, text_body, html_body FROM mail_outbox
		WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
		ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`).Scan(&id, &attempts, &m.To, &m.Subject, &m.Text, &m.HTML)
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrQueueEmpty
	}
	if err != nil {
		return fmt.Errorf("claim queued mail: %w", err)
	}
	sendErr := sender.Send(ctx, m)
	// The outcome is recorded even when ctx ends meanwhile (a worker
	// stopping): a sent message left unmarked would be sent again.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if sendErr == nil {
		_, err = tx.Exec(ctx, `UPDATE mail_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1`, id)
	} else {
		attempts++
		wait := RetryBase << min(attempts-1, 20)
		if wait > RetryMax {
			wait = RetryMax
		}
		_, err = tx.Exec(ctx, `UPDATE mail_outbox SET attempts = $2::int, last_error = $3,
			next_attempt_at = now() + $4::interval, failed_at = CASE WHEN $2::int >= $5::int THEN now() END WHERE id = $1`,
			id, attempts, sendErr.Error(), wait.String(), MaxAttempts)
	}
	if err != nil {
		return fmt.Errorf("record mail delivery: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("record mail delivery: %w", err)
	}
	if sendErr != nil {
		return &DeliveryError{ID: id, To: m.To, Err: sendErr}
	}
	return nil
}

// DeliveryError is a message the sender refused or failed to take; it is
// recorded and retried later, so the worker goes on with the next one.
type DeliveryError struct {
	ID  int64
	To  string
	Err error
}

func (e *DeliveryError) Error() string {
	return fmt.Sprintf("deliver mail %d to %s: %v", e.ID, e.To, e.Err)
}
func (e *DeliveryError) Unwrap() error { return e.Err }

// WorkerOptions tune a worker; zero values take the defaults.
type WorkerOptions struct {
	Poll time.Duration // how often to look for due mail without a kick; default 2 s
	// KeepSent is how long delivered and given-up messages stay in the
	// outbox (for inspection) before the worker deletes them; default 7 days.
	KeepSent time.Duration
}

// Prune deletes messages delivered or given up more than keep ago.
func (q *Queue) Prune(ctx context.Context, keep time.Duration) error {
	if _, err := q.pool.Exec(ctx, `DELETE FROM mail_outbox
		WHERE coalesce(sent_at, failed_at) < now() - $1::interval`, keep.String()); err != nil {
		return fmt.Errorf("prune mail outbox: %w", err)
	}
	return nil
}

// StartWorker delivers queued mail through sender until ctx is cancelled or
// the returned stop function is called (stop waits for the current delivery
// to finish). Any number of workers may run, in one process or several.
func (q *Queue) StartWorker(ctx context.Context, sender Mailer, log *slog.Logger, opts WorkerOptions) (stop func() error) {
	if opts.Poll <= 0 {
		opts.Poll = 2 * time.Second
	}
	if opts.KeepSent <= 0 {
		opts.KeepSent = 7 * 24 * time.Hour
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(opts.Poll)
		defer t.Stop()
		var pruned time.Time
		for {
			if time.Since(pruned) > time.Hour {
				// Idempotent, so several workers pruning at once is harmless.
				if err := q.Prune(ctx, opts.KeepSent); err != nil && ctx.Err() == nil {
					log.WarnContext(ctx, "mail outbox prune", "err", err)
				}
				pruned = time.Now()
			}
			// Drain everything due, then wait for a kick or the next poll.
			for ctx.Err() == nil {
				err := q.DeliverOne(ctx, sender)
				if errors.Is(err, ErrQueueEmpty) {
					break
				}
				if err != nil && ctx.Err() == nil {
					log.WarnContext(ctx, "mail delivery failed; will retry", "err", err)
					// A failed claim (database down) waits for the next poll
					// instead of spinning; a failed send is already rescheduled.
					var de *DeliveryError
					if !errors.As(err, &de) {
						break
					}
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-q.kick:
			case <-t.C:
			}
		}
	}()
	return func() error { cancel(); <-done; return nil }
}

// StartWorker runs one delivery worker over pool's mail_outbox with the
// default options: see Queue.StartWorker. Prefer the Queue's own method when
// the same process queues mail, so new messages wake the worker at once.
func StartWorker(ctx context.Context, pool *pgxpool.Pool, sender Mailer, log *slog.Logger) (stop func() error) {
	return NewQueue(pool).StartWorker(ctx, sender, log, WorkerOptions{})
}
