package workflows_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"

	"github.com/vetclube/vetclube/core/eventos"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/signups"
	"github.com/vetclube/vetclube/workflows"
)

// e0 is the suite's start: 2030-03-01 12:00 UTC.
var e0 = time.Date(2030, 3, 1, 12, 0, 0, 0, time.UTC)

// eventDB is a database with one published event (the listing built by the
// real trigger) and two participants, and the real events service on it.
type eventDB struct {
	pool   *pgxpool.Pool
	svc    *eventos.Service
	itemID string
	users  []string
}

func newEventDB(t *testing.T, start time.Time) *eventDB {
	t.Helper()
	pool := pgtest.New(t)
	ctx := context.Background()
	d := &eventDB{pool: pool}
	if err := pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, fields, status)
		VALUES ('eventos', 'lembrete', 'Workshop de lembretes', '{}', 'publicado') RETURNING id`).Scan(&d.itemID); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		VALUES ($1, 'eventos', 'lembrete', 'Workshop de lembretes', '', $2, '', 1, now(), now())`, d.itemID, fieldsAt(start)); err != nil {
		t.Fatal(err)
	}
	seats := signups.New(pool, signups.Options{})
	svc, err := eventos.New(pool, eventos.Options{Signups: seats, Notify: notifications.New(pool)})
	if err != nil {
		t.Fatal(err)
	}
	d.svc = svc
	for i := range 2 {
		var id string
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, fmt.Sprintf("p%d@teste.dev", i)).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if err := seats.Join(ctx, d.itemID, id); err != nil {
			t.Fatal(err)
		}
		d.users = append(d.users, id)
	}
	return d
}

func fieldsAt(start time.Time) map[string]any {
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	l := start.In(sp)
	return map[string]any{"event_date": l.Format(time.DateOnly), "event_time": l.Format("15:04"), "time_zone": "America/Sao_Paulo",
		"event_type": "Workshop", "location": "Sala 1", "is_active": true, "max_participants": 10}
}

// move republishes the event at a new start (the trigger updates the listing).
func (d *eventDB) move(t *testing.T, start time.Time) {
	t.Helper()
	f := fieldsAt(start)
	if _, err := d.pool.Exec(context.Background(), `UPDATE content_published SET fields = fields || $2, revision = revision + 1 WHERE item_id = $1`,
		d.itemID, f); err != nil {
		t.Fatal(err)
	}
}

func (d *eventDB) notices(t *testing.T) []string {
	t.Helper()
	rows, err := d.pool.Query(context.Background(), `SELECT n.title || '|' || coalesce(n.data->>'reminder', '') || '|' || n.idempotency_key
		FROM notifications n ORDER BY n.idempotency_key`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

type started struct {
	name string
	at   time.Duration // after e0
}

func eventEnv(t *testing.T, d *eventDB) (*testsuite.TestWorkflowEnvironment, *[]started) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(e0)
	env.RegisterActivity(&workflows.EventActivities{Events: d.svc})
	var log []started
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		log = append(log, started{info.ActivityType.Name, env.Now().Sub(e0).Round(time.Minute)})
	})
	return env, &log
}

// An event moved three times: only the last start's reminders fire, 24 h
// and 1 h before it, once per participant; no reminder of an earlier start
// ever fires, including one whose moment passed before the move.
func TestEventRemindersFollowEveryMove(t *testing.T) {
	s1, s2, s3, s4 := e0.Add(48*time.Hour), e0.Add(96*time.Hour), e0.Add(80*time.Hour), e0.Add(100*time.Hour)
	d := newEventDB(t, s1)
	env, log := eventEnv(t, d)
	move := func(after time.Duration, start time.Time) {
		env.RegisterDelayedCallback(func() {
			d.move(t, start)
			end := start.Add(2 * time.Hour)
			env.SignalWorkflow(workflows.SignalEventSchedule, workflows.EventScheduleChange{StartsAt: &start, EndsAt: &end})
		}, after)
	}
	move(time.Hour, s2)    // before any reminder of s1
	move(30*time.Hour, s3) // s1's 24 h moment (e0+24h) passed while it was not current
	move(50*time.Hour, s4) // s3's 24 h moment (e0+56h) is still ahead: it must not fire
	var mid workflows.EventRemindersState
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(workflows.QueryEventSchedule)
		if err == nil {
			err = v.Get(&mid)
		}
		if err != nil {
			t.Error(err)
		}
	}, 60*time.Hour)
	end1 := s1.Add(2 * time.Hour)
	env.ExecuteWorkflow(workflows.EventReminders, workflows.EventRemindersInput{ItemID: d.itemID, StartsAt: &s1, EndsAt: &end1})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	want := []started{{"SendEventReminder", 76 * time.Hour}, {"SendEventReminder", 99 * time.Hour}, {"UnpublishEndedEvent", 126 * time.Hour}}
	if fmt.Sprint(*log) != fmt.Sprint(want) {
		t.Fatalf("activities %v, want %v", *log, want)
	}
	if mid.Next == nil || !mid.Next.Equal(s4.Add(-24*time.Hour)) || mid.NextKind != eventos.Reminder24h || !mid.StartsAt.Equal(s4) {
		t.Fatalf("query after the third move: %+v", mid)
	}
	got := d.notices(t)
	sort.Strings(got)
	var wantKeys []string
	for _, u := range d.users {
		for _, k := range []string{"1h", "24h"} {
			wantKeys = append(wantKeys, fmt.Sprintf("Lembrete de evento|%s|event-reminder:%s:%s:%s:%d", k, d.itemID, u, k, s4.Unix()))
		}
	}
	sort.Strings(wantKeys)
	if strings.Join(got, "\n") != strings.Join(wantKeys, "\n") {
		t.Fatalf("notifications:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantKeys, "\n"))
	}
}

// Cancelling the event stops its reminders and tells every participant.
func TestEventCancelledTellsEveryParticipantAndSendsNoReminder(t *testing.T) {
	s1 := e0.Add(48 * time.Hour)
	d := newEventDB(t, s1)
	env, log := eventEnv(t, d)
	env.RegisterDelayedCallback(func() {
		var cancelled time.Time
		if _, err := d.pool.Exec(context.Background(), `UPDATE content_published SET fields = fields || '{"is_active": false}'
			WHERE item_id = $1`, d.itemID); err != nil {
			t.Error(err)
		}
		if err := d.pool.QueryRow(context.Background(), `SELECT cancelled_at FROM event_listings WHERE item_id = $1`, d.itemID).Scan(&cancelled); err != nil {
			t.Error(err)
		}
		env.SignalWorkflow(workflows.SignalEventSchedule, workflows.EventScheduleChange{CancelledAt: &cancelled})
	}, 2*time.Hour)
	end := s1.Add(2 * time.Hour)
	env.ExecuteWorkflow(workflows.EventReminders, workflows.EventRemindersInput{ItemID: d.itemID, StartsAt: &s1, EndsAt: &end})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	if want := []started{{"NotifyEventCancelled", 2 * time.Hour}}; fmt.Sprint(*log) != fmt.Sprint(want) {
		t.Fatalf("activities %v, want %v", *log, want)
	}
	got := d.notices(t)
	if len(got) != 2 || !strings.HasPrefix(got[0], "Evento cancelado|") || !strings.HasPrefix(got[1], "Evento cancelado|") {
		t.Fatalf("notifications %v", got)
	}
}
