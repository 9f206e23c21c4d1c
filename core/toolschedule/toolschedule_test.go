package toolschedule_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/toolschedule"
)

func newUser(t *testing.T, pool *pgxpool.Pool, email string) string {
	t.Helper()
	var id string
	if err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id::text`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func countNotifications(t *testing.T, pool *pgxpool.Pool, userID string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM notifications WHERE user_id = $1`, userID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestScheduleDeliverOnceRescheduleAndCancel(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := toolschedule.New(pool, toolschedule.Options{Sender: notifications.New(pool)})
	ana := newUser(t, pool, "ana@example.com")
	bia := newUser(t, pool, "bia@example.com")
	t0 := time.Date(2026, 3, 10, 11, 0, 0, 0, time.UTC) // 08:00 in São Paulo

	id, replaced, err := svc.Schedule(ctx, "prontuario-vet", ana, "vacina:1:dia", t0, "Vacina de Rex hoje", "V10, segunda dose", "/ferramentas/prontuario-vet/pacientes/1")
	if err != nil || replaced || id == "" {
		t.Fatalf("schedule: id %q replaced %v err %v", id, replaced, err)
	}
	// Moving it replaces the pending one (same row, one notification).
	if _, replaced, err = svc.Schedule(ctx, "prontuario-vet", ana, "vacina:1:dia", t0.Add(24*time.Hour), "Vacina de Rex hoje", "V10, segunda dose", "/ferramentas/prontuario-vet/pacientes/1"); err != nil || !replaced {
		t.Fatalf("reschedule: replaced %v err %v", replaced, err)
	}
	// Another member's key of the same name is theirs alone.
	if _, _, err := svc.Schedule(ctx, "prontuario-vet", bia, "vacina:1:dia", t0, "Vacina de Mia hoje", "", ""); err != nil {
		t.Fatal(err)
	}
	pending, err := svc.Pending(ctx, "prontuario-vet", ana)
	if err != nil || len(pending) != 1 || !pending[0].DueAt.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("pending after move: %+v %v", pending, err)
	}

	// At t0 only Bia's is due.
	n, next, err := svc.DeliverDue(ctx, t0, 100)
	if err != nil || n != 1 || !next.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("deliver at t0: %d next %v err %v", n, next, err)
	}
	if countNotifications(t, pool, ana) != 0 || countNotifications(t, pool, bia) != 1 {
		t.Fatal("only Bia's notification was due at t0")
	}
	// A day later Ana's arrives, once, with its text and link.
	for range 3 {
		if _, _, err := svc.DeliverDue(ctx, t0.Add(25*time.Hour), 100); err != nil {
			t.Fatal(err)
		}
	}
	var title, msg, link, typ string
	if err := pool.QueryRow(ctx, `SELECT title, message, link, type FROM notifications WHERE user_id = $1`, ana).Scan(&title, &msg, &link, &typ); err != nil {
		t.Fatalf("Ana's notification: %v (want exactly one)", err)
	}
	if title != "Vacina de Rex hoje" || msg != "V10, segunda dose" || link != "/ferramentas/prontuario-vet/pacientes/1" || typ != "plugin" {
		t.Fatalf("notification %q %q %q %q", title, msg, link, typ)
	}
	if countNotifications(t, pool, ana) != 1 {
		t.Fatal("delivered twice")
	}
	// Scheduling a delivered key again is a new delivery (a new dose date).
	if _, replaced, err := svc.Schedule(ctx, "prontuario-vet", ana, "vacina:1:dia", t0.Add(365*24*time.Hour), "Reforço anual de Rex", "", ""); err != nil || replaced {
		t.Fatalf("schedule after delivery: replaced %v err %v", replaced, err)
	}
	if n, _, _ := svc.DeliverDue(ctx, t0.Add(366*24*time.Hour), 100); n != 1 || countNotifications(t, pool, ana) != 2 {
		t.Fatalf("second delivery: %d", n)
	}

	// Cancel: exact key and by prefix; delivered rows stay in the export.
	for _, k := range []string{"vacina:2:dia", "vacina:2:antes", "vacina:3:dia"} {
		if _, _, err := svc.Schedule(ctx, "prontuario-vet", ana, k, t0.Add(400*24*time.Hour), "Vacina", "", ""); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := svc.Cancel(ctx, "prontuario-vet", ana, "vacina:2:", true); err != nil || c != 2 {
		t.Fatalf("cancel by prefix: %d %v", c, err)
	}
	if c, err := svc.Cancel(ctx, "outra-ferramenta", ana, "vacina:3:dia", false); err != nil || c != 0 {
		t.Fatalf("another tool cancelled this tool's key: %d %v", c, err)
	}
	if c, err := svc.Cancel(ctx, "prontuario-vet", bia, "vacina:3:dia", false); err != nil || c != 0 {
		t.Fatalf("another member cancelled Ana's key: %d %v", c, err)
	}
	if c, err := svc.Cancel(ctx, "prontuario-vet", ana, "vacina:3:dia", false); err != nil || c != 1 {
		t.Fatalf("cancel: %d %v", c, err)
	}
	if n, _, _ := svc.DeliverDue(ctx, t0.Add(500*24*time.Hour), 100); n != 0 {
		t.Fatalf("cancelled notifications delivered: %d", n)
	}
	exp, err := svc.ExportUserData(ctx, ana)
	if err != nil || len(exp.([]toolschedule.Notification)) != 1 {
		t.Fatalf("export: %+v %v", exp, err)
	}
	if n, err := svc.EraseUser(ctx, ana); err != nil || n != 1 {
		t.Fatalf("erase: %d %v", n, err)
	}
}

func TestConcurrentSweepsDeliverEachOnce(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := toolschedule.New(pool, toolschedule.Options{Sender: notifications.New(pool)})
	ana := newUser(t, pool, "ana@example.com")
	t0 := time.Date(2026, 3, 10, 11, 0, 0, 0, time.UTC)
	const rows = 40
	for i := range rows {
		if _, _, err := svc.Schedule(ctx, "prontuario-vet", ana, fmt.Sprintf("k%d", i), t0.Add(time.Duration(i)*time.Second), "Lembrete", "", ""); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, _, err := svc.DeliverDue(ctx, t0.Add(time.Hour), rows)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != rows || countNotifications(t, pool, ana) != rows {
		t.Fatalf("delivered %d, notifications %d, want %d each", total, countNotifications(t, pool, ana), rows)
	}
}

func TestPendingCapPerMemberAndTool(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := toolschedule.New(pool, toolschedule.Options{Sender: notifications.New(pool)})
	ana := newUser(t, pool, "ana@example.com")
	at := time.Date(2027, 1, 1, 11, 0, 0, 0, time.UTC)
	if _, err := pool.Exec(ctx, `INSERT INTO tool_scheduled_notifications (plugin_id, user_id, key, due_at, title)
		SELECT 'prontuario-vet', $1, 'k' || g, $2, 'Lembrete' FROM generate_series(1, $3) g`, ana, at, toolschedule.MaxPendingPerTool); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Schedule(ctx, "prontuario-vet", ana, "one-more", at, "Lembrete", "", ""); !errors.Is(err, toolschedule.ErrTooMany) {
		t.Fatalf("past the cap: %v", err)
	}
	// Moving an existing key is still allowed, and another tool has its own cap.
	if _, _, err := svc.Schedule(ctx, "prontuario-vet", ana, "k1", at.Add(time.Hour), "Lembrete", "", ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Schedule(ctx, "doencas", ana, "one-more", at, "Lembrete", "", ""); err != nil {
		t.Fatal(err)
	}
}
