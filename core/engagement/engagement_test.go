package engagement_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

type fixture struct {
	ctx   context.Context
	pool  *pgxpool.Pool
	svc   *engagement.Service
	store *content.Store
	clock *atomic.Int64
}

func (f *fixture) now() time.Time { return time.Unix(0, f.clock.Load()).UTC() }

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{ctx: context.Background(), pool: pgtest.New(t), clock: &atomic.Int64{}}
	f.clock.Store(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).UnixNano())
	reg := content.NewRegistry()
	if err := reg.Register(content.Type{ID: "videos", Singular: "Vídeo", Plural: "Vídeos", Workflow: content.WorkflowPublishOnCreate}); err != nil {
		t.Fatal(err)
	}
	f.store = content.New(f.pool, reg, content.Options{Now: f.now})
	f.svc = engagement.New(f.pool, engagement.Options{Now: f.now})
	return f
}

func (f *fixture) user(t testing.TB) string {
	t.Helper()
	var id string
	if err := f.pool.QueryRow(f.ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id::text`,
		fmt.Sprintf("u%d@example.com", rand.Int64())).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// item creates a published item.
func (f *fixture) item(t testing.TB, title string) string {
	t.Helper()
	it, _, err := f.store.Create(f.ctx, content.Actor{Channel: content.ChannelImport}, "videos", content.Input{Title: title}, "")
	if err != nil {
		t.Fatal(err)
	}
	return it.ID
}

// realCounts counts the rows the counters stand for.
func (f *fixture) realCounts(t *testing.T, item string) engagement.Counters {
	t.Helper()
	var c engagement.Counters
	err := f.pool.QueryRow(f.ctx, `SELECT
		(SELECT count(*) FROM engagement_favorites WHERE item_id = $1),
		(SELECT count(*) FROM engagement_reactions WHERE item_id = $1 AND reaction = 'like'),
		(SELECT count(*) FROM engagement_reactions WHERE item_id = $1 AND reaction = 'dislike'),
		(SELECT count(*) FROM engagement_enrolments WHERE item_id = $1)`, item).Scan(&c.Favorites, &c.Likes, &c.Dislikes, &c.Enrolments)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestConcurrentTogglesKeepCountersExact(t *testing.T) {
	f := newFixture(t)
	items := []string{f.item(t, "Aula 1"), f.item(t, "Aula 2")}
	users := make([]string, 20)
	for i := range users {
		users[i] = f.user(t)
	}
	same := users[0]
	var sameFavToggles, sameLikeToggles atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, 1000)
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			item := items[i%2]
			user := users[1+rand.IntN(len(users)-1)] // not the hammering reader
			var err error
			switch i % 5 {
			case 0: // the same reader hammering one item
				_, err = f.svc.ToggleFavorite(f.ctx, same, items[0])
				sameFavToggles.Add(1)
			case 1:
				_, err = f.svc.ToggleReaction(f.ctx, same, items[0], engagement.ReactionLike)
				sameLikeToggles.Add(1)
			case 2:
				_, err = f.svc.ToggleFavorite(f.ctx, user, item)
			case 3:
				r := engagement.ReactionLike
				if rand.IntN(2) == 0 {
					r = engagement.ReactionDislike
				}
				_, err = f.svc.ToggleReaction(f.ctx, user, item, r)
			case 4:
				_, err = f.svc.SetEnrolled(f.ctx, user, item, rand.IntN(3) > 0)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, item := range items {
		got, err := f.svc.Counters(f.ctx, item)
		if err != nil {
			t.Fatal(err)
		}
		want := f.realCounts(t, item)
		if got != want {
			t.Fatalf("item %s: counters %+v, rows %+v", item, got, want)
		}
	}
	// 40 toggles by one reader on one item leave it as it started: toggles
	// are serialised, none is lost.
	sum, err := f.svc.Summary(f.ctx, same, items[0])
	if err != nil {
		t.Fatal(err)
	}
	if sum.Favorited != (sameFavToggles.Load()%2 == 1) {
		t.Fatalf("after %d toggles favorited=%v", sameFavToggles.Load(), sum.Favorited)
	}
	if sameLikeToggles.Load()%2 == 0 && sum.Reaction == engagement.ReactionLike {
		t.Fatalf("after %d like toggles the reaction is %q", sameLikeToggles.Load(), sum.Reaction)
	}
}

func TestLikeAndDislikeExcludeEachOther(t *testing.T) {
	f := newFixture(t)
	item, u := f.item(t, "Aula"), f.user(t)
	steps := []struct {
		do      func() (engagement.Reaction, error)
		want    engagement.Reaction
		likes   int64
		dislike int64
	}{
		{func() (engagement.Reaction, error) {
			return f.svc.ToggleReaction(f.ctx, u, item, engagement.ReactionLike)
		}, engagement.ReactionLike, 1, 0},
		{func() (engagement.Reaction, error) {
			return f.svc.ToggleReaction(f.ctx, u, item, engagement.ReactionDislike)
		}, engagement.ReactionDislike, 0, 1},
		{func() (engagement.Reaction, error) {
			return f.svc.ToggleReaction(f.ctx, u, item, engagement.ReactionDislike)
		}, engagement.ReactionNone, 0, 0},
		{func() (engagement.Reaction, error) {
			_, err := f.svc.SetReaction(f.ctx, u, item, engagement.ReactionLike)
			return engagement.ReactionLike, err
		}, engagement.ReactionLike, 1, 0},
		{func() (engagement.Reaction, error) {
			_, err := f.svc.SetReaction(f.ctx, u, item, engagement.ReactionLike) // again: no change
			return engagement.ReactionLike, err
		}, engagement.ReactionLike, 1, 0},
		{func() (engagement.Reaction, error) {
			prev, err := f.svc.SetReaction(f.ctx, u, item, engagement.ReactionNone)
			if prev != engagement.ReactionLike {
				return prev, fmt.Errorf("previous %q", prev)
			}
			return engagement.ReactionNone, err
		}, engagement.ReactionNone, 0, 0},
	}
	for i, s := range steps {
		got, err := s.do()
		if err != nil || got != s.want {
			t.Fatalf("step %d: %q %v", i, got, err)
		}
		c, _ := f.svc.Counters(f.ctx, item)
		if c.Likes != s.likes || c.Dislikes != s.dislike {
			t.Fatalf("step %d: counters %+v", i, c)
		}
	}
	if _, err := f.svc.SetReaction(f.ctx, u, item, "love"); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("unknown reaction: %v", err)
	}
	if changed, err := f.svc.SetFavorite(f.ctx, u, item, false); err != nil || changed {
		t.Fatalf("removing a favorite that does not exist: %v %v", changed, err)
	}
	if c, _ := f.svc.Counters(f.ctx, item); c.Favorites != 0 {
		t.Fatalf("favorites went to %d", c.Favorites)
	}
}

func TestOnlyPublishedItemsCanBeEngagedWith(t *testing.T) {
	f := newFixture(t)
	item, u := f.item(t, "Aula"), f.user(t)
	if _, err := f.store.Transition(f.ctx, content.Actor{Channel: content.ChannelSystem},
		content.Transition{ID: item, To: content.StatusArchived, Effect: content.EffectUnpublish}); err != nil {
		t.Fatal(err)
	}
	checks := map[string]error{}
	_, checks["favorite"] = f.svc.ToggleFavorite(f.ctx, u, item)
	_, checks["view"] = f.svc.RecordView(f.ctx, u, item)
	_, checks["progress"] = f.svc.RecordProgress(f.ctx, u, item, engagement.ProgressUpdate{PositionSeconds: 1})
	_, checks["bad id"] = f.svc.SetEnrolled(f.ctx, u, "x", true)
	for name, err := range checks {
		if core.ErrorCode(err) != core.ENOTFOUND || core.ErrorMessage(err) != engagement.MsgItemNotFound {
			t.Fatalf("%s on an unpublished item: %v", name, err)
		}
	}
}

func TestViewCountsOncePerReaderPer24Hours(t *testing.T) {
	f := newFixture(t)
	item, a, b := f.item(t, "Aula"), f.user(t), f.user(t)
	steps := []struct {
		advance time.Duration
		user    string
		counted bool
		views   int64
	}{
		{0, a, true, 1},
		{0, a, false, 1},
		{23*time.Hour + 59*time.Minute, a, false, 1},
		{0, b, true, 2},
		{time.Minute, a, true, 3}, // exactly 24 h after the counted view
		{12 * time.Hour, a, false, 3},
		{11*time.Hour + 59*time.Minute - time.Second, b, false, 3}, // b's window ends 1 s later
		{time.Second, b, true, 4},
	}
	for i, s := range steps {
		f.clock.Add(int64(s.advance))
		counted, err := f.svc.RecordView(f.ctx, s.user, item)
		c, _ := f.svc.Counters(f.ctx, item)
		if err != nil || counted != s.counted || c.Views != s.views {
			t.Fatalf("step %d: counted=%v views=%d err=%v", i, counted, c.Views, err)
		}
	}
	// Concurrent views by one reader count once.
	c := f.user(t)
	var n atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if counted, err := f.svc.RecordView(f.ctx, c, item); err != nil {
				t.Error(err)
			} else if counted {
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if got, _ := f.svc.Counters(f.ctx, item); n.Load() != 1 || got.Views != 5 {
		t.Fatalf("concurrent views counted %d times, views %d", n.Load(), got.Views)
	}
}

func TestMergeRanges(t *testing.T) {
	r := func(a, b float64) engagement.Range { return engagement.Range{Start: a, End: b} }
	cases := []struct {
		name string
		in   []engagement.Range
		want []engagement.Range
	}{
		{"empty", nil, []engagement.Range{}},
		{"disjoint out of order", []engagement.Range{r(50, 60), r(0, 10)}, []engagement.Range{r(0, 10), r(50, 60)}},
		{"overlapping", []engagement.Range{r(0, 10), r(5, 20), r(18, 25)}, []engagement.Range{r(0, 25)}},
		{"touching", []engagement.Range{r(10, 20), r(0, 10)}, []engagement.Range{r(0, 20)}},
		{"contained", []engagement.Range{r(0, 100), r(20, 30)}, []engagement.Range{r(0, 100)}},
		{"empty ranges dropped", []engagement.Range{r(5, 5), r(9, 3), r(1, 2)}, []engagement.Range{r(1, 2)}},
		{"mixed", []engagement.Range{r(30, 40), r(0, 5), r(35, 50), r(4, 8), r(60, 61)}, []engagement.Range{r(0, 8), r(30, 50), r(60, 61)}},
	}
	for _, c := range cases {
		if got := engagement.MergeRanges(c.in); !reflect.DeepEqual(got, c.want) {
			t.Fatalf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := engagement.Covered([]engagement.Range{r(0, 8), r(30, 50)}); got != 28 {
		t.Fatalf("covered %v", got)
	}
}

func TestProgressCompletesOnWatchedTimeNotOnPosition(t *testing.T) {
	f := newFixture(t)
	item, u := f.item(t, "Aula em vídeo"), f.user(t)
	r := func(a, b float64) engagement.Range { return engagement.Range{Start: a, End: b} }
	report := func(pos float64, watched ...engagement.Range) engagement.Progress {
		t.Helper()
		p, err := f.svc.RecordProgress(f.ctx, u, item, engagement.ProgressUpdate{PositionSeconds: pos, DurationSeconds: 100, Watched: watched})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := report(20, r(0, 20))
	if p.Percent != 20 || p.CompletedAt != nil {
		t.Fatalf("first report %+v", p)
	}
	// Scrubbing to the end plays nothing: not complete.
	p = report(100)
	if p.Percent != 20 || p.CompletedAt != nil || p.PositionSeconds != 100 {
		t.Fatalf("after scrubbing to the end %+v", p)
	}
	// Out of order and overlapping reports merge; past the end is clipped.
	p = report(95, r(80, 120), r(10, 30), r(50, 70))
	if !reflect.DeepEqual(p.Watched, []engagement.Range{r(0, 30), r(50, 70), r(80, 100)}) || p.Percent != 70 || p.CompletedAt != nil {
		t.Fatalf("merged %+v", p)
	}
	p = report(50, r(30, 45))
	if p.Percent != 85 || p.CompletedAt != nil {
		t.Fatalf("85 %%: %+v", p)
	}
	f.clock.Add(int64(time.Minute))
	p = report(50, r(44, 50))
	if p.Percent != 90 || p.CompletedAt == nil || !p.CompletedAt.Equal(f.now()) {
		t.Fatalf("90 %% watched completes: %+v", p)
	}
	completedAt := *p.CompletedAt
	f.clock.Add(int64(time.Minute))
	p = report(5)
	if !p.CompletedAt.Equal(completedAt) || p.Percent != 90 || p.PositionSeconds != 5 {
		t.Fatalf("completion or percent moved: %+v", p)
	}
	stored, err := f.svc.Progress(f.ctx, u, item)
	if err != nil || !reflect.DeepEqual(stored.Watched, p.Watched) || stored.Percent != 90 {
		t.Fatalf("stored %+v %v", stored, err)
	}
	if sum, _ := f.svc.Summary(f.ctx, u, item); !sum.Completed || sum.Percent != 90 {
		t.Fatalf("summary %+v", sum)
	}

	// Items without a duration report a percent; it never goes down.
	text := f.item(t, "Aula em texto")
	pct := func(v float64) *float64 { return &v }
	for _, s := range []struct {
		in, want float64
		done     bool
	}{{40, 40, false}, {30, 40, false}, {100, 100, true}} {
		p, err := f.svc.RecordProgress(f.ctx, u, text, engagement.ProgressUpdate{Percent: pct(s.in)})
		if err != nil || p.Percent != s.want || (p.CompletedAt != nil) != s.done {
			t.Fatalf("percent %v: %+v %v", s.in, p, err)
		}
	}
	if _, err := f.svc.RecordProgress(f.ctx, u, text, engagement.ProgressUpdate{Percent: pct(101)}); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("percent above 100: %v", err)
	}
	if _, err := f.svc.RecordProgress(f.ctx, u, item, engagement.ProgressUpdate{Watched: []engagement.Range{r(10, 5)}}); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("reversed range: %v", err)
	}
}
