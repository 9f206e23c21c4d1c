package seed_test

import (
	"io"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
	"github.com/vetclube/vetclube/core/videos"
)

// With the videos plugin loaded, the seed publishes six exclusive videos in
// two categories, once; the list reads them from the read model.
func TestSeedVideos(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "videos")})
	for range 2 {
		if err := seed.Run(t.Context(), srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	var demo string
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT id FROM users WHERE email = 'demo@vetclube.dev'`).Scan(&demo); err != nil {
		t.Fatal(err)
	}
	p, err := srv.App.Videos.List(t.Context(), demo, videos.Filter{Page: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Videos) != 6 || p.HasMore {
		t.Fatalf("%d videos (has_more %v)", len(p.Videos), p.HasMore)
	}
	for _, v := range p.Videos {
		if v.Category == nil || v.Duration != "11min" || v.VideoSource != "youtube" || v.Thumbnail == nil || v.Instructor == "" {
			t.Errorf("video %s: %+v", v.Title, v)
		}
	}
	cats, err := srv.App.Videos.Categories(t.Context())
	if err != nil || len(cats) != 2 || cats[0].Name != "Clínica de Pequenos Animais" {
		t.Fatalf("categories: %+v %v", cats, err)
	}
	last, err := srv.App.Videos.Latest(t.Context(), demo)
	if err != nil || last == nil || last.Title != "Do diploma ao primeiro emprego" {
		t.Fatalf("latest: %+v %v", last, err)
	}
}
