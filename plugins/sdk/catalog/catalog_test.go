package catalog_test

import (
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk/catalog"
)

func TestDurationSeconds(t *testing.T) {
	for in, want := range map[string]int{"12:30": 750, "1:02:03": 3723, "x": 0, "": 0, "1:2:3:4": 0, "-1:00": 0} {
		if got := catalog.DurationSeconds(in); got != want {
			t.Errorf("%q: %d, want %d", in, got, want)
		}
	}
}

// With no source chosen, the first filled field in Sources' order is the
// source; a chosen source with its field empty plays nothing.
func TestEffectiveSourceAndPlayable(t *testing.T) {
	f := map[string]any{"stream_url": "https://cdn.example/a.m3u8", "vimeo_url": "https://vimeo.com/1"}
	if got := catalog.EffectiveSource(f); got != "vimeo" || !catalog.Playable(f) {
		t.Fatalf("inferred source %q", got)
	}
	f["video_source"] = "upload"
	if catalog.Playable(f) {
		t.Fatal("an upload with no asset plays")
	}
	if catalog.Playable(map[string]any{"youtube_url": "  "}) {
		t.Fatal("a blank address plays")
	}
}

func TestCheckVideo(t *testing.T) {
	errs := map[string]string{}
	catalog.CheckVideo(map[string]any{"video_source": "stream", "stream_url": "http://cdn.example/a.m3u8",
		"youtube_url": "https://example.com/watch?v=abc"}, errs)
	if errs["stream_url"] != catalog.MsgStreamURL || errs["youtube_url"] != catalog.MsgYouTubeURL || len(errs) != 2 {
		t.Fatalf("errors: %v", errs)
	}
}

func TestCheckCategory(t *testing.T) {
	errs := map[string]string{}
	got := catalog.CheckCategory(map[string]any{"hidden": true, "display_order": 1.5}, errs)
	if got["is_active"] != false || errs["display_order"] != catalog.MsgWholeNumber {
		t.Fatalf("computed %v, errors %v", got, errs)
	}
}
