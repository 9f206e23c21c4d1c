package api

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func statsOf(p99 time.Duration) *stats {
	s := &stats{}
	lat := make([]time.Duration, 100)
	for i := range lat {
		lat[i] = time.Millisecond
	}
	// The slowest 2 %: whichever rank Quantile(0.99) picks.
	lat[98], lat[99] = p99, p99
	s.add(phase{OK: len(lat), Elapsed: time.Second, Latencies: lat})
	return s
}

// The growth run scales exactly the volumes its rows read, measures only
// the growth rows the base run measured, and prints each one's p99 ratio
// against the target.
func TestGrowthConfigAndTable(t *testing.T) {
	base := Config{Users: 10, NewsItems: 5, FeedPosts: 7, FeedComments: 70, Courses: 3, CourseEnrols: 9, Videos: 4, Notifs: 2}
	rowNamed := func(name string, floor, real time.Duration) Row {
		for _, ep := range Endpoints {
			if ep.Name == name {
				return Row{Endpoint: ep, Floor: statsOf(floor), Real: statsOf(real)}
			}
		}
		t.Fatalf("no endpoint %q", name)
		return Row{}
	}
	measured := []Row{rowNamed("points balance", 10*time.Millisecond, 12*time.Millisecond),
		rowNamed("news list", 10*time.Millisecond, 20*time.Millisecond),
		rowNamed("course list", 10*time.Millisecond, 20*time.Millisecond)}
	g := GrowthConfig(base, measured)
	if g.NewsItems != 50 || g.FeedPosts != 70 || g.FeedComments != 700 || g.Courses != 30 || g.CourseEnrols != 90 || g.Videos != 40 ||
		g.Users != base.Users || g.Notifs != base.Notifs {
		t.Fatalf("growth config %+v", g)
	}
	if strings.Join(g.Rows, ",") != "news list,course list" {
		t.Fatalf("growth rows %v", g.Rows)
	}
	grown := []Row{rowNamed("news list", 11*time.Millisecond, 22*time.Millisecond),
		rowNamed("course list", 30*time.Millisecond, 60*time.Millisecond)}
	var out bytes.Buffer
	GrowthReport{Base: Report{Config: base, Rows: measured}, Grown: Report{Config: g, Rows: grown}}.Print(&out)
	lines := strings.Split(out.String(), "\n")
	find := func(path string) string {
		for _, l := range lines {
			if strings.Contains(l, path) {
				return l
			}
		}
		t.Fatalf("no line for %s in\n%s", path, out.String())
		return ""
	}
	if l := find("/api/content/"); !strings.Contains(l, "1.10×") || !strings.HasSuffix(strings.TrimSpace(l), "yes") {
		t.Errorf("news line: %q", l)
	}
	if l := find(coursesPath); !strings.Contains(l, "3.00×") || !strings.HasSuffix(strings.TrimSpace(l), "no") {
		t.Errorf("course line: %q", l)
	}
}
