package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSmoke runs the whole harness on a tiny data set (one round of one
// second) and checks that it works: every endpoint has a row, both sides
// answered it with non-zero throughput and no failures, and the floor's
// answers have the real endpoints' JSON shape. It asserts nothing about speed.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and loads it for ~15 s")
	}
	rep := Run(t, Config{Users: 40, Notifs: 20, Ledger: 10, CheckinUsers: 300, NewsItems: 200,
		FeedPosts: 500, FeedComments: 5000, Courses: 300, CourseEnrols: 1200, Videos: 300, Concurrency: 4,
		Duration: time.Second, Warmup: 100 * time.Millisecond, Rounds: 1})
	var out bytes.Buffer
	rep.Print(&out)
	t.Log(out.String())
	if len(rep.Rows) != len(Endpoints) {
		t.Fatalf("%d rows for %d endpoints", len(rep.Rows), len(Endpoints))
	}
	for _, r := range rep.Rows {
		if !strings.Contains(out.String(), r.Endpoint.Method+" "+r.Endpoint.Path) {
			t.Errorf("table has no row for %s", r.Endpoint.Path)
		}
		for name, s := range map[string]*stats{"floor": r.Floor, "real": r.Real} {
			if s.OK == 0 || s.RPS() <= 0 || s.Quantile(0.99) <= 0 {
				t.Errorf("%s %s: no successful requests (%d errors, first: %s)", r.Endpoint.Path, name, s.Errors, s.FirstErr)
			}
			if s.Errors > 0 {
				t.Errorf("%s %s: %d failed requests (first: %s)", r.Endpoint.Path, name, s.Errors, s.FirstErr)
			}
		}
		if len(r.ShapeDiff) > 0 {
			t.Errorf("%s: the floor's answer has not the real one's shape: %v", r.Endpoint.Path, r.ShapeDiff)
		}
		if strings.HasPrefix(r.Endpoint.Path, feedPath) {
			checkFeedAnswers(t, r)
		}
		if strings.HasPrefix(r.Endpoint.Path, coursesPath) {
			checkCourseAnswers(t, r)
		}
		if strings.HasPrefix(r.Endpoint.Path, videosPath) {
			checkVideoAnswers(t, r)
		}
	}
}

// checkFeedAnswers: the feed's floor runs the real statement, so both sides
// answer the same bytes, and the seeded page is a full one (20 posts, each
// with its author and 10 comments, some with pictures, and a next page).
func checkFeedAnswers(t *testing.T, r Row) {
	t.Helper()
	if !bytes.Equal(r.Answers["floor"], r.Answers["real"]) {
		t.Errorf("%s: floor and real answers differ:\nfloor %s\nreal  %s", r.Endpoint.Path, r.Answers["floor"], r.Answers["real"])
	}
	var page struct {
		Items []struct {
			Author   *struct{ ID string }   `json:"author"`
			Comments int64                  `json:"comments_count"`
			Media    []struct{ URL string } `json:"media"`
		} `json:"items"`
		NextCursor *string `json:"next_cursor"`
	}
	if err := json.Unmarshal(r.Answers["real"], &page); err != nil {
		t.Fatalf("%s: %v", r.Endpoint.Path, err)
	}
	pictures := 0
	for i, p := range page.Items {
		if p.Author == nil || p.Comments != 10 {
			t.Errorf("%s: post %d: author %v, %d comments; want an author and 10 comments", r.Endpoint.Path, i, p.Author, p.Comments)
		}
		pictures += len(p.Media)
	}
	if len(page.Items) != 20 || page.NextCursor == nil || pictures == 0 {
		t.Errorf("%s: %d posts, next cursor %v, %d pictures; want 20 posts, a next page and pictures", r.Endpoint.Path,
			len(page.Items), page.NextCursor, pictures)
	}
}

// checkCourseAnswers: the course list's floor runs the real statement, so
// both sides answer the same bytes, and the seeded first page is a full one
// with the reader's progress and favorites.
func checkCourseAnswers(t *testing.T, r Row) {
	t.Helper()
	if !bytes.Equal(r.Answers["floor"], r.Answers["real"]) {
		t.Errorf("%s: floor and real answers differ:\nfloor %s\nreal  %s", r.Endpoint.Path, r.Answers["floor"], r.Answers["real"])
	}
	var page struct {
		Courses []struct {
			Level      string `json:"level"`
			Progress   int    `json:"progress"`
			IsEnrolled bool   `json:"is_enrolled"`
			IsFavorite bool   `json:"is_favorite"`
		} `json:"courses"`
		HasMore bool `json:"has_more"`
	}
	if err := json.Unmarshal(r.Answers["real"], &page); err != nil {
		t.Fatalf("%s: %v", r.Endpoint.Path, err)
	}
	enrolled, favorites, partial, done := 0, 0, 0, 0
	for _, c := range page.Courses {
		if c.Level != "Intermediário" {
			t.Errorf("%s: a %s course in the level filter", r.Endpoint.Path, c.Level)
		}
		if c.IsEnrolled {
			enrolled++
		}
		if c.IsFavorite {
			favorites++
		}
		switch c.Progress {
		case 40:
			partial++
		case 100:
			done++
		}
	}
	if len(page.Courses) != 20 || !page.HasMore || enrolled < 5 || favorites != 2 || partial < 4 || done != 1 {
		t.Errorf("%s: %d courses (has_more %v), %d enrolled, %d favorites, %d at 40 %%, %d at 100 %%", r.Endpoint.Path,
			len(page.Courses), page.HasMore, enrolled, favorites, partial, done)
	}
}

// checkVideoAnswers: the video list's floor runs the real statements, so
// both sides answer the same bytes, and the seeded first page is a full,
// unlocked one with the reader's favorites, like, progress and completion.
func checkVideoAnswers(t *testing.T, r Row) {
	t.Helper()
	if !bytes.Equal(r.Answers["floor"], r.Answers["real"]) {
		t.Errorf("%s: floor and real answers differ:\nfloor %s\nreal  %s", r.Endpoint.Path, r.Answers["floor"], r.Answers["real"])
	}
	var page struct {
		Videos []struct {
			Slug        string  `json:"slug"`
			Thumbnail   *string `json:"thumbnail"`
			Category    *struct{ Name string }
			Progress    int  `json:"progress"`
			IsFavorite  bool `json:"is_favorite"`
			UserLiked   bool `json:"user_liked"`
			IsCompleted bool `json:"is_completed"`
			Locked      bool `json:"locked"`
		} `json:"videos"`
		HasMore bool `json:"has_more"`
	}
	if err := json.Unmarshal(r.Answers["real"], &page); err != nil {
		t.Fatalf("%s: %v", r.Endpoint.Path, err)
	}
	favorites, liked, partial, done := 0, 0, 0, 0
	for i, v := range page.Videos {
		if want := fmt.Sprintf("video-%d", i+1); v.Slug != want || v.Locked || v.Thumbnail == nil || v.Category == nil {
			t.Errorf("%s: card %d: %s (locked %v, thumbnail %v, category %v); want %s unlocked with a thumbnail and a category",
				r.Endpoint.Path, i, v.Slug, v.Locked, v.Thumbnail, v.Category, want)
		}
		if v.IsFavorite {
			favorites++
		}
		if v.UserLiked {
			liked++
		}
		if v.Progress == 40 {
			partial++
		}
		if v.IsCompleted && v.Progress == 95 {
			done++
		}
	}
	if len(page.Videos) != 8 || !page.HasMore || favorites != 2 || liked != 1 || partial != 1 || done != 1 {
		t.Errorf("%s: %d videos (has_more %v), %d favorites, %d liked, %d at 40 %%, %d completed at 95 %%", r.Endpoint.Path,
			len(page.Videos), page.HasMore, favorites, liked, partial, done)
	}
}

// TestBenchAPI is `make bench-api`: the full run with DefaultConfig
// (BENCH_API_* variables override it). It only runs when BENCH_API=1.
func TestBenchAPI(t *testing.T) {
	if os.Getenv("BENCH_API") != "1" {
		t.Skip("the full benchmark runs with `make bench-api` (BENCH_API=1)")
	}
	cfg := DefaultConfig()
	if path := os.Getenv("BENCH_API_LOG"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg.LogFile = f
	}
	rep := Run(t, cfg)
	rep.Print(os.Stdout)
	// The cost-growth rows (growth.go), unless BENCH_API_GROWTH=0.
	if os.Getenv("BENCH_API_GROWTH") == "0" {
		return
	}
	if gcfg := GrowthConfig(cfg, rep.Rows); len(gcfg.Rows) > 0 {
		gcfg.LogFile = nil
		GrowthReport{Base: rep, Grown: Run(t, gcfg)}.Print(os.Stdout)
	}
}
