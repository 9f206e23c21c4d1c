package seed_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/videos"
)

// The media library's demo videos: clips made by ffmpeg, imported into the
// library and processed by the real pipeline on Temporal, published in both
// demo categories once ready, playable as HLS; a second run makes nothing.
func TestSeedMediaVideos(t *testing.T) {
	dev := apptest.TemporalDev(t)
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "videos"), "TEMPORAL_ADDRESS": dev.Addr,
		"DEMO_MEDIA": "false"})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	if err := seed.Run(ctx, srv.App, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, total, err := srv.App.Media.List(ctx, media.Query{Limit: 10}); err != nil || total != 0 {
		t.Fatalf("DEMO_MEDIA=false: the seed made %d assets (%v)", total, err)
	}
	n, err := seed.MediaVideos(ctx, srv.App)
	if err != nil || n != 3 {
		t.Fatalf("published %d demo media videos (%v), want 3", n, err)
	}
	if n, err := seed.MediaVideos(ctx, srv.App); err != nil || n != 0 {
		t.Fatalf("second run published %d (%v)", n, err)
	}
	assets, total, err := srv.App.Media.List(ctx, media.Query{Limit: 10})
	if err != nil || total != 3 {
		t.Fatalf("%d assets after two runs (%v), want 3", total, err)
	}
	for _, a := range assets {
		if a.State != media.StateReady || a.Width != 1280 || a.Height != 720 || a.DurationSeconds < 7.5 || a.DurationSeconds > 12.5 ||
			len(a.UsedIn) != 1 {
			t.Errorf("asset %s: %s %dx%d %.1fs used in %v", a.OriginalName, a.State, a.Width, a.Height, a.DurationSeconds, a.UsedIn)
		}
	}

	var demo string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT id FROM users WHERE email = 'demo@vetclube.dev'`).Scan(&demo); err != nil {
		t.Fatal(err)
	}
	var uploaded []videos.Card
	for page := 1; ; page++ {
		p, err := srv.App.Videos.List(ctx, demo, videos.Filter{Page: page})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p.Videos {
			if c.VideoSource == "upload" {
				uploaded = append(uploaded, c)
			}
		}
		if !p.HasMore {
			break
		}
	}
	cats := map[string]bool{}
	for _, c := range uploaded {
		if c.Category != nil {
			cats[c.Category.Name] = true
		}
		if c.Thumbnail == nil || c.DurationSeconds < 8 || c.DurationSeconds > 12 {
			t.Errorf("card %s: thumbnail %v, %d s", c.Title, c.Thumbnail, c.DurationSeconds)
		}
	}
	if len(uploaded) != 3 || len(cats) != 2 {
		t.Fatalf("%d uploaded videos in the list, categories %v", len(uploaded), cats)
	}

	d, err := srv.App.Videos.Detail(ctx, uploaded[0].Slug, demo)
	if err != nil {
		t.Fatal(err)
	}
	if d.Video == nil || d.Video.Kind != "hls" || d.Video.URL == "" {
		t.Fatalf("player %+v", d.Video)
	}
	res, err := http.Get(srv.URL + d.Video.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), "#EXTM3U") || !strings.Contains(string(body), "720p") {
		t.Fatalf("master playlist: %s\n%s", res.Status, body)
	}
}
