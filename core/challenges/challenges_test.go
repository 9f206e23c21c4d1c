package challenges_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/challenges"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// Fifty submissions of one member at once: one is scored, the points (the
// share of right answers) are credited once, and every caller sees the
// same result.
func TestSubmitScoresAndCreditsOnceUnderConcurrency(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := e.publish(t, "caso-cardio", caseFields(t0.Add(-time.Hour), t0.Add(48*time.Hour), 90))
	member := e.user(t, "cardiologia")

	// Before submitting: answers saved as the member goes, nothing unlocked.
	p, err := e.svc.Save(ctx, member, "caso-cardio", map[string]string{"1": "A"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != challenges.StatusInProgress || p.Answered != 1 {
		t.Fatalf("saved: %+v", p)
	}
	page, err := e.svc.Get(ctx, member, id)
	if err != nil {
		t.Fatal(err)
	}
	if page.Unlocked || page.Explanation != "" || len(page.Questions) != 3 || page.Questions[0].Correct != "" || page.Me.Answers["1"] != "A" {
		t.Fatalf("page before submitting leaks or loses: %+v", page)
	}
	if _, err := e.svc.Submit(ctx, member, id, map[string]string{"2": "B"}); core.ErrorCode(err) != core.EINVALID || core.ErrorMessage(err) != challenges.MsgAnswerAll {
		t.Fatalf("submit with a question unanswered: %v", err)
	}
	if _, err := e.svc.Save(ctx, member, id, map[string]string{"2": "E"}); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("a letter beyond the options: %v", err)
	}

	const n = 50
	var wg sync.WaitGroup
	results := make([]challenges.Result, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = e.svc.Submit(ctx, member, id, all3)
		}()
	}
	wg.Wait()
	fresh := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("submission %d: %v", i, errs[i])
		}
		r := results[i]
		if !r.AlreadySubmitted {
			fresh++
		}
		if r.Challenge.Me == nil || r.Challenge.Me.Status != challenges.StatusSubmitted || r.Challenge.Me.Correct != 2 ||
			r.Challenge.Me.Total != 3 || r.Challenge.Me.PointsAwarded != 60 {
			t.Fatalf("submission %d result: %+v", i, r.Challenge.Me)
		}
		if !r.Challenge.Unlocked || r.Challenge.Explanation == "" || r.Challenge.Questions[0].Correct != "A" {
			t.Fatalf("submission %d: explanation not unlocked", i)
		}
	}
	if fresh != 1 {
		t.Fatalf("%d submissions scored, want exactly 1", fresh)
	}
	if sum, entries := e.challengePoints(t, member); sum != 60 || entries != 1 {
		t.Fatalf("ledger: %d VetCoins in %d entries, want 60 in 1", sum, entries)
	}
	bal, err := points.New(e.pool).Balance(ctx, member)
	if err != nil {
		t.Fatal(err)
	}
	if bal.ChallengePoints != 60 {
		t.Fatalf("balance challenge_points %d, want 60", bal.ChallengePoints)
	}
	if _, err := e.svc.Save(ctx, member, id, map[string]string{"1": "B"}); core.ErrorMessage(err) != challenges.MsgAlreadySent {
		t.Fatalf("changing a submitted answer: %v", err)
	}
	// The start counted once in the trial limit.
	var used int
	if err := e.pool.QueryRow(ctx, `SELECT used FROM trial_usage WHERE user_id = $1 AND limit_type = 'challenges'`, member).Scan(&used); err != nil || used != 1 {
		t.Fatalf("trial usage %d (%v), want 1", used, err)
	}
	b, err := e.svc.BadgesOf(ctx, member)
	if err != nil {
		t.Fatal(err)
	}
	if b.Streak != 1 || b.Completed != 1 || !b.Badges[0].Earned || b.Badges[1].Earned {
		t.Fatalf("badges: %+v", b)
	}
}

// Fifty members submitting the same challenge at once are each credited
// exactly once.
func TestManyMembersSubmitAtOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := e.publish(t, "quiz-geral", caseFields(t0.Add(-time.Hour), t0.Add(time.Hour), 30))
	const n = 50
	members := make([]string, n)
	for i := range members {
		members[i] = e.user(t, "cardiologia")
	}
	var wg sync.WaitGroup
	errs := make([]error, 2*n)
	for i := range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.svc.Submit(ctx, members[i%n], id, map[string]string{"1": "A", "2": "B", "3": "C"})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("submission %d: %v", i, err)
		}
	}
	var sum, entries int
	if err := e.pool.QueryRow(ctx, `SELECT coalesce(sum(amount), 0)::int, count(*)::int FROM points_ledger WHERE kind = 'challenge'`).Scan(&sum, &entries); err != nil {
		t.Fatal(err)
	}
	if sum != 30*n || entries != n {
		t.Fatalf("ledger: %d VetCoins in %d entries, want %d in %d", sum, entries, 30*n, n)
	}
}

// A member without a paid plan takes part in TRIAL_LIMITS' 3 challenges;
// the fourth is refused with the pt-BR reason and the Premium invitation's
// marker; a Premium member is not limited, and a premium-only challenge is
// closed to a member without Premium or the trial.
func TestTrialLimitRefusedWithReason(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var ids []string
	for _, slug := range []string{"d1", "d2", "d3", "d4"} {
		ids = append(ids, e.publish(t, slug, caseFields(t0.Add(-time.Hour), t0.Add(time.Hour), 10)))
	}
	free := e.user(t, "cardiologia")
	for _, id := range ids[:3] {
		if _, err := e.svc.Save(ctx, free, id, map[string]string{"1": "A"}); err != nil {
			t.Fatalf("start within the limit: %v", err)
		}
	}
	// Saving again in a started challenge is not a new start.
	if _, err := e.svc.Save(ctx, free, ids[0], map[string]string{"2": "B"}); err != nil {
		t.Fatalf("second save: %v", err)
	}
	_, err := e.svc.Submit(ctx, free, ids[3], all3)
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.EFORBIDDEN || ce.Fields["access"] != challenges.AccessTrialLimit {
		t.Fatalf("fourth challenge: %v", err)
	}
	want := sdk.LimitReason("challenges", 3)
	if ce.Message != want || want != "Você atingiu o limite de 3 desafios profissionais do teste gratuito. Assine o Premium para ter todos os desafios profissionais." {
		t.Fatalf("reason %q", ce.Message)
	}
	if _, entries := e.challengePoints(t, free); entries != 0 {
		t.Fatal("a refused submission was credited")
	}

	paid := e.user(t, "cardiologia")
	e.premium(t, paid)
	for _, id := range ids {
		if _, err := e.svc.Submit(ctx, paid, id, all3); err != nil {
			t.Fatalf("premium member: %v", err)
		}
	}

	f := caseFields(t0.Add(-time.Hour), t0.Add(time.Hour), 10)
	f["premium_only"] = true
	only := e.publish(t, "so-premium", f)
	other := e.user(t, "cardiologia")
	page, err := e.svc.Get(ctx, other, only)
	if err != nil || page.Access != challenges.AccessPremium || len(page.Questions) != 0 || page.History != "" {
		t.Fatalf("premium-only page for a free member: %+v %v", page, err)
	}
	if _, err := e.svc.Save(ctx, other, only, map[string]string{"1": "A"}); !errors.As(err, &ce) || ce.Fields["access"] != challenges.AccessPremium {
		t.Fatalf("premium-only answers from a free member: %v", err)
	}
	if _, err := e.svc.Submit(ctx, paid, only, all3); err != nil {
		t.Fatalf("premium-only for premium: %v", err)
	}
}

// The lists split by phase and filter; an upcoming challenge hides its
// questions and refuses answers.
func TestListsAndPhases(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.publish(t, "ativo", caseFields(t0.Add(-time.Hour), t0.Add(time.Hour), 10))
	up := e.publish(t, "proximo", caseFields(t0.Add(24*time.Hour), t0.Add(48*time.Hour), 10))
	f := caseFields(t0.Add(-48*time.Hour), t0.Add(-24*time.Hour), 10)
	f["specialty"], f["difficulty"] = "dermatologia", "facil"
	e.publish(t, "encerrado", f)
	m := e.user(t, "cardiologia")
	for phase, want := range map[string]string{challenges.PhaseActive: "ativo", challenges.PhaseUpcoming: "proximo", challenges.PhaseFinished: "encerrado"} {
		list, err := e.svc.List(ctx, m, challenges.Filter{Phase: phase})
		if err != nil || len(list) != 1 || list[0].Slug != want || list[0].Phase != phase {
			t.Fatalf("%s: %+v %v", phase, list, err)
		}
	}
	if list, _ := e.svc.List(ctx, m, challenges.Filter{Specialty: "dermatologia", Difficulty: "facil"}); len(list) != 1 || list[0].Slug != "encerrado" {
		t.Fatalf("filters: %+v", list)
	}
	page, err := e.svc.Get(ctx, m, up)
	if err != nil || len(page.Questions) != 0 {
		t.Fatalf("upcoming page: %+v %v", page, err)
	}
	if _, err := e.svc.Save(ctx, m, up, map[string]string{"1": "A"}); core.ErrorMessage(err) != challenges.MsgNotStarted {
		t.Fatalf("answers before the start: %v", err)
	}
	// A finished challenge shows its answers to anyone.
	done, err := e.svc.Get(ctx, m, "encerrado")
	if err != nil || !done.Unlocked || done.Questions[1].Correct != "B" {
		t.Fatalf("finished page: %+v %v", done, err)
	}
}

// At the end drafts are closed without points, late answers are refused,
// and the week's ranking counts submitted challenges only (everyone, or
// the member's connections).
func TestRankingAfterLateSubmissionsAreClosed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	end := t0.Add(2 * time.Hour)
	id := e.publish(t, "semana", caseFields(t0.Add(-time.Hour), end, 90))
	ana, bia, caio, dani := e.user(t, "cardiologia"), e.user(t, "cardiologia"), e.user(t, "cardiologia"), e.user(t, "cardiologia")
	if _, err := e.svc.Submit(ctx, ana, id, map[string]string{"1": "A", "2": "B", "3": "C"}); err != nil { // 90
		t.Fatal(err)
	}
	if _, err := e.svc.Submit(ctx, caio, id, all3); err != nil { // 60
		t.Fatal(err)
	}
	if _, err := e.svc.Save(ctx, bia, id, map[string]string{"1": "A", "2": "B"}); err != nil {
		t.Fatal(err)
	}
	e.clock.set(end.Add(time.Minute))
	if _, err := e.svc.Submit(ctx, bia, id, map[string]string{"3": "C"}); core.ErrorMessage(err) != challenges.MsgClosed {
		t.Fatalf("late submission: %v", err)
	}
	closed, later, err := e.svc.Close(ctx, id)
	if err != nil || closed != 1 || later != nil {
		t.Fatalf("close: %d %v %v", closed, later, err)
	}
	if _, err := e.svc.Submit(ctx, bia, id, map[string]string{"3": "C"}); core.ErrorMessage(err) != challenges.MsgClosed {
		t.Fatalf("submission after close: %v", err)
	}
	page, err := e.svc.Get(ctx, bia, id)
	if err != nil || page.Me.Status != challenges.StatusClosed || !page.Unlocked {
		t.Fatalf("closed draft: %+v %v", page.Me, err)
	}
	r, err := e.svc.Ranking(ctx, bia, challenges.ScopeAll, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries) != 2 || r.Entries[0].UserID != ana || r.Entries[0].Points != 90 || r.Entries[0].Position != 1 ||
		r.Entries[1].UserID != caio || r.Entries[1].Points != 60 || r.Entries[1].Position != 2 || r.Me != nil {
		t.Fatalf("ranking: %+v", r)
	}
	if r.WeekStart != "2030-03-04" {
		t.Fatalf("week starts %s, want Monday 2030-03-04", r.WeekStart)
	}
	// dani is connected to caio only.
	if _, err := e.pool.Exec(ctx, `INSERT INTO connections (requester_id, receiver_id, status, accepted_at) VALUES ($1, $2, 'accepted', now())`, dani, caio); err != nil {
		t.Fatal(err)
	}
	r, err = e.svc.Ranking(ctx, dani, challenges.ScopeConnections, time.Time{})
	if err != nil || len(r.Entries) != 1 || r.Entries[0].UserID != caio || r.Entries[0].Position != 1 {
		t.Fatalf("connections ranking: %+v %v", r, err)
	}
	// Next week's ranking is empty; the snapshot of this week ranks two.
	if r, _ := e.svc.Ranking(ctx, ana, challenges.ScopeAll, t0.AddDate(0, 0, 7)); len(r.Entries) != 0 {
		t.Fatalf("next week: %+v", r)
	}
	n, err := e.svc.SnapshotWeek(ctx, t0)
	if err != nil || n != 2 {
		t.Fatalf("snapshot: %d %v", n, err)
	}
	if n, err := e.svc.SnapshotWeek(ctx, t0); err != nil || n != 2 {
		t.Fatalf("snapshot again: %d %v", n, err)
	}
	var notices int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE type = 'challenge' AND user_id = $1`, ana).Scan(&notices); err != nil || notices != 1 {
		t.Fatalf("ana's ranking notices: %d %v", notices, err)
	}
}

// Members of the challenge's specialty hear of it at its start (once);
// members with unsent answers hear of its end a day before.
func TestNotices(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := e.publish(t, "aviso", caseFields(t0.Add(-time.Minute), t0.Add(20*time.Hour), 10))
	cardio, derma := e.user(t, "cardiologia"), e.user(t, "dermatologia")
	for range 2 {
		if _, err := e.svc.Announce(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	count := func(user, title string) int {
		var n int
		if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND type = 'challenge' AND title = $2`, user, title).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count(cardio, "Novo desafio na sua especialidade") != 1 || count(derma, "Novo desafio na sua especialidade") != 0 {
		t.Fatal("new challenge notice goes to its specialty once")
	}
	if _, err := e.svc.Save(ctx, derma, id, map[string]string{"1": "A"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Submit(ctx, cardio, id, all3); err != nil {
		t.Fatal(err)
	}
	if n, err := e.svc.RemindEnding(ctx, id); err != nil || n != 1 {
		t.Fatalf("ending reminder: %d %v", n, err)
	}
	if count(derma, "Desafio termina em 24 horas") != 1 || count(cardio, "Desafio termina em 24 horas") != 0 {
		t.Fatal("the ending reminder goes to unsent drafts only")
	}
}

// The member's data export holds their answers; erasing removes them.
func TestLGPD(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := e.publish(t, "lgpd", caseFields(t0.Add(-time.Hour), t0.Add(time.Hour), 10))
	m := e.user(t, "cardiologia")
	if _, err := e.svc.Submit(ctx, m, id, all3); err != nil {
		t.Fatal(err)
	}
	out, err := e.svc.ExportUserData(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	ex := out.(challenges.Export)
	if len(ex.Participations) != 1 || ex.Participations[0].Answers["3"] != "A" || len(ex.Badges) != 1 {
		t.Fatalf("export: %+v", ex)
	}
	n, err := e.svc.EraseUserData(ctx, m)
	if err != nil || n != 2 {
		t.Fatalf("erase: %d %v", n, err)
	}
	out, _ = e.svc.ExportUserData(ctx, m)
	if ex := out.(challenges.Export); len(ex.Participations) != 0 || len(ex.Badges) != 0 {
		t.Fatalf("after erase: %+v", ex)
	}
}

// studyFields is a study streak: lessonsGoal lessons from start to end.
func studyFields(start, end time.Time, pts, lessonsGoal int) map[string]any {
	return map[string]any{"description": "Conclua aulas de cursos durante a semana.", "kind": challenges.KindStudy,
		"starts_at": start.Format(time.RFC3339), "ends_at": end.Format(time.RFC3339), "points": pts,
		"difficulty": "facil", "specialty": "clinica_geral", "premium_only": false, "lessons_goal": lessonsGoal}
}

// completeLesson records that userID completed a new lesson at at (the
// courses' table, as core/courses writes it).
func (e *env) completeLesson(t *testing.T, userID string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	e.n++
	var lesson string
	if err := e.pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, fields, status)
		VALUES ('aulas', $1, 'Aula', '{}', 'publicado') RETURNING id`, fmt.Sprintf("aula-%d-%d", e.n, time.Now().UnixNano())).Scan(&lesson); err != nil {
		t.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `INSERT INTO course_lesson_completions (user_id, lesson_id, how, completed_at) VALUES ($1, $2, 'marked', $3)`,
		userID, lesson, at); err != nil {
		t.Fatal(err)
	}
}

// A study streak counts the lessons completed in its period (the courses'
// count): completing it before the goal is refused with the count, reaching
// it credits the points once under concurrent clicks, and the end timer
// completes the members who reached the goal without clicking and closes
// the others.
func TestStudyStreak(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	svc, err := challenges.New(e.pool, challenges.Options{Notify: notifications.New(e.pool), Lessons: courses.New(e.pool, courses.Options{}), Now: e.clock.now})
	if err != nil {
		t.Fatal(err)
	}
	id := e.publish(t, "estudos-semana", studyFields(t0.Add(-time.Hour), t0.Add(48*time.Hour), 50, 3))
	eager, quiet, short := e.user(t, "clinica_geral"), e.user(t, "clinica_geral"), e.user(t, "clinica_geral")
	for _, m := range []string{eager, quiet, short} {
		if _, err := svc.Save(ctx, m, "estudos-semana", map[string]string{}); err != nil {
			t.Fatalf("join: %v", err)
		}
		e.completeLesson(t, m, t0.Add(-2*time.Hour)) // before the start: not counted
	}
	if _, err := svc.Save(ctx, eager, id, map[string]string{"1": "A"}); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("an answer to a study streak: %v", err)
	}
	e.completeLesson(t, eager, t0.Add(-30*time.Minute))
	e.completeLesson(t, eager, t0.Add(-10*time.Minute))
	page, err := svc.Get(ctx, eager, id)
	if err != nil {
		t.Fatal(err)
	}
	if page.Goal != 3 || page.Done == nil || *page.Done != 2 || page.QuestionCount != 0 {
		t.Fatalf("progress: goal %d done %v questions %d", page.Goal, page.Done, page.QuestionCount)
	}
	if _, err := svc.Submit(ctx, eager, id, nil); core.ErrorCode(err) != core.ECONFLICT || core.ErrorMessage(err) != fmt.Sprintf(challenges.MsgGoalNotMet, 3, 2) {
		t.Fatalf("completing before the goal: %v", err)
	}
	e.completeLesson(t, eager, t0.Add(-5*time.Minute))

	const n = 10
	var wg sync.WaitGroup
	results := make([]challenges.Result, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = svc.Submit(ctx, eager, id, nil)
		}()
	}
	wg.Wait()
	fresh := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("completion %d: %v", i, errs[i])
		}
		if !results[i].AlreadySubmitted {
			fresh++
		}
		if me := results[i].Challenge.Me; me == nil || me.Status != challenges.StatusSubmitted || me.PointsAwarded != 50 {
			t.Fatalf("completion %d: %+v", i, me)
		}
	}
	if sum, entries := e.challengePoints(t, eager); fresh != 1 || sum != 50 || entries != 1 {
		t.Fatalf("%d completions, ledger %d VetCoins in %d entries; want 1, 50 in 1", fresh, sum, entries)
	}

	// quiet reaches the goal and never clicks; short stops at two lessons,
	// and a third after the end does not count.
	for _, m := range []time.Duration{time.Hour, 2 * time.Hour, 3 * time.Hour} {
		e.completeLesson(t, quiet, t0.Add(m))
	}
	e.completeLesson(t, short, t0.Add(time.Hour))
	e.completeLesson(t, short, t0.Add(2*time.Hour))
	e.completeLesson(t, short, t0.Add(49*time.Hour))
	e.clock.set(t0.Add(50 * time.Hour))
	for round := 0; round < 2; round++ {
		closed, moved, err := svc.Close(ctx, id)
		if err != nil || moved != nil {
			t.Fatalf("close: %v %v", err, moved)
		}
		if want := map[int]int{0: 1, 1: 0}[round]; closed != want {
			t.Fatalf("close round %d closed %d drafts, want %d", round, closed, want)
		}
	}
	if sum, entries := e.challengePoints(t, quiet); sum != 50 || entries != 1 {
		t.Fatalf("quiet: %d VetCoins in %d entries, want 50 in 1", sum, entries)
	}
	if sum, _ := e.challengePoints(t, short); sum != 0 {
		t.Fatalf("short got %d VetCoins", sum)
	}
	list, err := svc.List(ctx, short, challenges.Filter{Phase: challenges.PhaseFinished})
	if err != nil || len(list) != 1 || list[0].Me.Status != challenges.StatusClosed || *list[0].Done != 2 {
		t.Fatalf("short's finished list: %v %+v", err, list)
	}
}

// answersOf is a fixed count of accepted answers per member (what
// core/community counts; its own test covers the counting).
type answersOf map[string]int

func (a answersOf) AcceptedAnswers(_ context.Context, userID string, _, _ time.Time) (int, error) {
	return a[userID], nil
}

// A community challenge counts the member's accepted answers against its
// goal: refused with the count below it, all its points once at it.
func TestCommunityChallenge(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	helper, newcomer := e.user(t, "clinica_geral"), e.user(t, "clinica_geral")
	answers := answersOf{helper: 2, newcomer: 1}
	svc, err := challenges.New(e.pool, challenges.Options{Answers: answers, Now: e.clock.now})
	if err != nil {
		t.Fatal(err)
	}
	f := studyFields(t0.Add(-time.Hour), t0.Add(48*time.Hour), 60, 0)
	f["kind"], f["answers_goal"] = challenges.KindCommunity, 2
	delete(f, "lessons_goal")
	id := e.publish(t, "ajude-colegas", f)
	page, err := svc.Get(ctx, helper, id)
	if err != nil || page.Goal != 2 || page.Done == nil || *page.Done != 2 {
		t.Fatalf("the page before joining: %v goal %d done %v", err, page.Goal, page.Done)
	}
	if _, err := svc.Submit(ctx, newcomer, id, nil); core.ErrorMessage(err) != fmt.Sprintf(challenges.MsgAnswersNotMet, 2, 1) {
		t.Fatalf("below the goal: %v", err)
	}
	res, err := svc.Submit(ctx, helper, id, nil)
	if err != nil || res.Challenge.Me.PointsAwarded != 60 || *res.Challenge.Done != 2 {
		t.Fatalf("at the goal: %v %+v", err, res.Challenge.Me)
	}
	if sum, entries := e.challengePoints(t, helper); sum != 60 || entries != 1 {
		t.Fatalf("ledger %d in %d", sum, entries)
	}
}
