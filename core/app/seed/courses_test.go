package seed_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/text"
)

// With the cursos plugin loaded, the seed publishes three courses with their
// categories, instructors, modules and lessons, once; the catalogue and the
// course pages read them from the read model.
func TestSeedCourses(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "cursos")})
	for range 2 {
		if err := seed.Run(t.Context(), srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	var demo string
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT id FROM users WHERE email = 'demo@vetclube.dev'`).Scan(&demo); err != nil {
		t.Fatal(err)
	}
	p, err := srv.App.Courses.List(t.Context(), demo, courses.Filter{Page: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Courses) != 3 {
		t.Fatalf("%d courses", len(p.Courses))
	}
	pictures := map[string]bool{}
	for _, c := range p.Courses {
		if c.Category == nil || c.Instructor == nil || c.Duration == "" || c.Level == "" {
			t.Errorf("course %s: %+v", c.Title, c)
		}
		// A real picture, made by the seed and stored as an editor's upload.
		if c.Thumbnail == nil || *c.Thumbnail == "" || pictures[*c.Thumbnail] {
			t.Errorf("course %s: thumbnail %v", c.Title, c.Thumbnail)
		} else {
			pictures[*c.Thumbnail] = true
			res, err := http.Get(srv.URL + *c.Thumbnail)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "image/") {
				t.Errorf("course %s: thumbnail %s answers %d %s", c.Title, *c.Thumbnail, res.StatusCode, res.Header.Get("Content-Type"))
			}
		}
		d, err := srv.App.Courses.Detail(t.Context(), c.ID, demo)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Modules) != 2 || d.RequiredLessons < 4 || d.Continue == nil || !d.Modules[0].Lessons[0].IsFree {
			t.Errorf("course %s: %d modules, %d required lessons", c.Title, len(d.Modules), d.RequiredLessons)
		}
		// What the page shows adds up: each module's total is the sum of
		// its lessons as shown, and the course claims the sum of its modules.
		total := 0
		for _, m := range d.Modules {
			minutes := 0
			for _, l := range m.Lessons {
				if l.Duration != "" {
					var n int
					if _, err := fmt.Sscanf(l.Duration, "%dmin", &n); err != nil {
						t.Fatalf("lesson %s duration %q", l.Title, l.Duration)
					}
					minutes += n
				}
			}
			if want := text.Duration(minutes * 60); m.Duration != want {
				t.Errorf("course %s module %s: total %q, lessons add up to %q", c.Title, m.Title, m.Duration, want)
			}
			total += minutes
		}
		if want := text.Duration(total * 60); c.Duration != want {
			t.Errorf("course %s claims %q, its lessons add up to %q", c.Title, c.Duration, want)
		}
	}
	// Seeding again stores no second picture.
	var stored int
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT count(*) FROM media_assets WHERE kind = 'image' AND original_name LIKE '%.png'`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != 3 {
		t.Errorf("%d course pictures stored after two seed runs, want 3", stored)
	}
	f, err := srv.App.Courses.FilterOptions(t.Context())
	if err != nil || len(f.Categories) != 3 || len(f.Instructors) != 3 {
		t.Fatalf("filters: %+v %v", f, err)
	}
}
