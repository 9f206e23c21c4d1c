package challenges_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/challenges"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// t0 is the tests' "now": Wednesday 2030-03-06 15:00 UTC.
var t0 = time.Date(2030, 3, 6, 15, 0, 0, 0, time.UTC)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// env is a migrated database with the real challenges, subscriptions and
// notifications services on it.
type env struct {
	pool  *pgxpool.Pool
	svc   *challenges.Service
	clock *clock
	n     int
}

func newEnv(t *testing.T) *env {
	t.Helper()
	pool := pgtest.New(t)
	c := &clock{t: t0}
	subs := subscriptions.New(pool, subscriptions.Options{Limits: map[string]int{"challenges": 3}, Now: c.now})
	svc, err := challenges.New(pool, challenges.Options{Subscriptions: subs, Notify: notifications.New(pool), Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return &env{pool: pool, svc: svc, clock: c}
}

// caseFields is a clinical case with three questions (answers A, B, C)
// open from start to end.
func caseFields(start, end time.Time, pts int) map[string]any {
	return map[string]any{"description": "Um caso clínico de teste com descrição.", "kind": "caso_clinico",
		"starts_at": start.Format(time.RFC3339), "ends_at": end.Format(time.RFC3339), "points": pts,
		"difficulty": "medio", "specialty": "cardiologia", "premium_only": false,
		"history": "Cão, 9 anos, tosse.", "exam_findings": "Sopro sistólico.", "explanation": "Discussão do caso.",
		"q1_text": "Diagnóstico?", "q1_options": "DMVM\nCMD\nEfusão", "q1_correct": "A", "q1_explanation": "Sopro em cão idoso.",
		"q2_text": "Exame?", "q2_options": "Hemograma\nEcocardiograma", "q2_correct": "B",
		"q3_text": "Conduta?", "q3_options": "Alta\nCirurgia\nPimobendan", "q3_correct": "C"}
}

// publish inserts a published challenge snapshot (the trigger builds its
// listing) and returns its id.
func (e *env) publish(t *testing.T, slug string, fields map[string]any) string {
	t.Helper()
	ctx := context.Background()
	var id string
	if err := e.pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, fields, status)
		VALUES ('desafios', $1, $2, '{}', 'publicado') RETURNING id`, slug, "Desafio "+slug).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		VALUES ($1, 'desafios', $2, $3, '', $4, '', 1, now(), now())`, id, slug, "Desafio "+slug, fields); err != nil {
		t.Fatal(err)
	}
	return id
}

// user creates a member with a profile in specialty.
func (e *env) user(t *testing.T, specialty string) string {
	t.Helper()
	e.n++
	var id string
	ctx := context.Background()
	if err := e.pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, fmt.Sprintf("m%d-%d@teste.dev", e.n, time.Now().UnixNano())).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `INSERT INTO profiles (user_id, first_name, last_name, specialties) VALUES ($1, $2, 'Teste', $3)`,
		id, fmt.Sprintf("Membro%d", e.n), []string{specialty}); err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *env) premium(t *testing.T, userID string) {
	t.Helper()
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO subscribers (user_id, subscription_status, subscription_tier) VALUES ($1, 'active', 'premium_monthly')`, userID); err != nil {
		t.Fatal(err)
	}
}

func (e *env) challengePoints(t *testing.T, userID string) (sum, entries int) {
	t.Helper()
	if err := e.pool.QueryRow(context.Background(), `SELECT coalesce(sum(amount), 0)::int, count(*)::int FROM points_ledger WHERE user_id = $1 AND kind = 'challenge'`,
		userID).Scan(&sum, &entries); err != nil {
		t.Fatal(err)
	}
	return sum, entries
}

var all3 = map[string]string{"1": "A", "2": "B", "3": "A"} // two right of three
