package workflows_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/challenges"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/workflows"
)

// challengeFields is a three-question quiz (answers A, B, C) in cardiology.
func challengeFields(start, end time.Time) map[string]any {
	return map[string]any{"kind": "quiz", "starts_at": start.Format(time.RFC3339), "ends_at": end.Format(time.RFC3339), "points": 90,
		"difficulty": "facil", "specialty": "cardiologia", "explanation": "Discussão.",
		"q1_text": "Um?", "q1_options": "a\nb", "q1_correct": "A",
		"q2_text": "Dois?", "q2_options": "a\nb", "q2_correct": "B",
		"q3_text": "Três?", "q3_options": "a\nb\nc", "q3_correct": "C"}
}

// A challenge's timer on the time-skipping test server, with the real
// service and database: members of the specialty hear of it at the start,
// a moved end moves the reminder and the close, the draft's owner is
// reminded a day before the new end, a late submission is refused and the
// draft closed at the end, and the week's ranking counts the submitted
// answers only.
func TestChallengeTimerClosesLateDraftsAndTheRankingCountsSubmissionsOnly(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(e0) // a Friday
	// The delayed callbacks below write to the database from the
	// workflow's goroutine; on a loaded machine that may pass 1 s.
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	now := func() time.Time { return env.Now() }
	subs := subscriptions.New(pool, subscriptions.Options{Limits: map[string]int{"challenges": 3}, Now: now})
	svc, err := challenges.New(pool, challenges.Options{Subscriptions: subs, Notify: notifications.New(pool), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	start, end, later := e0.Add(2*time.Hour), e0.Add(26*time.Hour), e0.Add(50*time.Hour)
	var itemID string
	if err := pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, fields, status) VALUES ('desafios', 'semanal', 'Quiz semanal', '{}', 'publicado') RETURNING id`).Scan(&itemID); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		VALUES ($1, 'desafios', 'semanal', 'Quiz semanal', '', $2, '', 1, now(), now())`, itemID, challengeFields(start, end)); err != nil {
		t.Fatal(err)
	}
	users := map[string]string{}
	for _, name := range []string{"ana", "bia", "caio"} {
		var id string
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, name+"@teste.dev").Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO profiles (user_id, first_name, specialties) VALUES ($1, $2, '{cardiologia}')`, id, name); err != nil {
			t.Fatal(err)
		}
		users[name] = id
	}
	env.RegisterActivity(&workflows.ChallengeActivities{Challenges: svc})
	var log []string
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		log = append(log, fmt.Sprintf("%s@%s", info.ActivityType.Name, env.Now().Sub(e0).Round(time.Minute)))
	})
	fail := func(err error) {
		if err != nil {
			t.Error(err)
		}
	}
	// 3 h: ana submits (all right), bia saves a draft.
	env.RegisterDelayedCallback(func() {
		_, err := svc.Submit(ctx, users["ana"], itemID, map[string]string{"1": "A", "2": "B", "3": "C"})
		fail(err)
		_, err = svc.Save(ctx, users["bia"], itemID, map[string]string{"1": "A", "2": "B"})
		fail(err)
	}, 3*time.Hour)
	// 5 h: the end moves a day later (the editor republished it).
	env.RegisterDelayedCallback(func() {
		_, err := pool.Exec(ctx, `UPDATE content_published SET fields = $2, revision = revision + 1 WHERE item_id = $1`, itemID, challengeFields(start, later))
		fail(err)
		env.SignalWorkflow(workflows.SignalChallengeSchedule, workflows.ChallengePeriod{StartsAt: start, EndsAt: later})
	}, 5*time.Hour)
	// 40 h: caio submits two of three right.
	env.RegisterDelayedCallback(func() {
		_, err := svc.Submit(ctx, users["caio"], itemID, map[string]string{"1": "A", "2": "B", "3": "A"})
		fail(err)
	}, 40*time.Hour)

	p := workflows.ChallengePeriod{StartsAt: start, EndsAt: end}
	env.ExecuteWorkflow(workflows.ChallengeTimer, workflows.ChallengeTimerInput{ItemID: itemID, Period: &p})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	want := []string{"AnnounceChallenge@2h0m0s", "RemindChallengeEnding@26h0m0s", "CloseChallenge@50h0m0s"}
	if fmt.Sprint(log) != fmt.Sprint(want) {
		t.Fatalf("activities %v, want %v", log, want)
	}
	// After the end: bia's late submission is refused.
	if _, lateErr := svc.Submit(ctx, users["bia"], itemID, map[string]string{"3": "C"}); core.ErrorMessage(lateErr) != challenges.MsgClosed {
		t.Fatalf("late submission: %v", lateErr)
	}
	count := func(user, title string) int {
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND title = $2`, user, title).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for name, id := range users {
		if count(id, "Novo desafio na sua especialidade") != 1 {
			t.Errorf("%s was not told of the new challenge once", name)
		}
	}
	if count(users["bia"], "Desafio termina em 24 horas") != 1 || count(users["caio"], "Desafio termina em 24 horas") != 0 ||
		count(users["ana"], "Desafio termina em 24 horas") != 0 {
		t.Error("the ending reminder goes to members with unsent answers (bia; caio had not started then) only")
	}
	var status string
	if err := pool.QueryRow(ctx, `SELECT status FROM challenge_participations WHERE user_id = $1`, users["bia"]).Scan(&status); err != nil || status != "closed" {
		t.Fatalf("bia's draft: %s %v", status, err)
	}
	r, err := svc.Ranking(ctx, users["bia"], challenges.ScopeAll, e0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries) != 2 || r.Entries[0].UserID != users["ana"] || r.Entries[0].Points != 90 ||
		r.Entries[1].UserID != users["caio"] || r.Entries[1].Points != 60 || r.Me != nil {
		t.Fatalf("ranking: %+v", r)
	}
}

// The weekly ranking sleeps until Monday 00:00 (São Paulo), keeps the
// week's ranking and tells each ranked member, then goes on with the next
// week.
func TestWeeklyRankingSnapshotsAtTheWeeksEnd(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(e0)
	now := func() time.Time { return env.Now() }
	svc, err := challenges.New(pool, challenges.Options{Notify: notifications.New(pool), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	var user, itemID string
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('semana@teste.dev') RETURNING id`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, fields, status) VALUES ('desafios', 's', 'S', '{}', 'publicado') RETURNING id`).Scan(&itemID); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		VALUES ($1, 'desafios', 's', 'S', '', $2, '', 1, now(), now())`, itemID, challengeFields(e0.Add(-time.Hour), e0.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Submit(ctx, user, itemID, map[string]string{"1": "A", "2": "B", "3": "C"}); err != nil {
		t.Fatal(err)
	}
	env.RegisterActivity(&workflows.ChallengeActivities{Challenges: svc})
	weekEnd := svc.WeekStart(e0).AddDate(0, 0, 7)
	env.ExecuteWorkflow(workflows.WeeklyChallengeRanking, workflows.WeeklyRankingInput{WeekEnd: weekEnd})
	if !env.IsWorkflowCompleted() {
		t.Fatal("not completed")
	}
	// It continues as new with the following week.
	err = env.GetWorkflowError()
	if err == nil {
		t.Fatal("want continue-as-new")
	}
	var pos, pts int
	var week string
	if err := pool.QueryRow(ctx, `SELECT to_char(week_start, 'YYYY-MM-DD'), position, points FROM challenge_week_rankings WHERE user_id = $1`, user).Scan(&week, &pos, &pts); err != nil {
		t.Fatal(err)
	}
	if week != "2030-02-25" || pos != 1 || pts != 90 {
		t.Fatalf("snapshot %s %d %d", week, pos, pts)
	}
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND title = 'Ranking semanal dos desafios'`, user).Scan(&n); err != nil || n != 1 {
		t.Fatalf("ranking notices %d %v", n, err)
	}
}
