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
	// Plain http only on this machine's loopback (a stream served locally).
	for addr, ok := range map[string]bool{
		"http://127.0.0.1:8080/uploads/a/master.m3u8": true, "http://localhost/a.m3u8": true, "http://[::1]:9000/a.m3u8": true,
		"http://10.0.0.5/a.m3u8": false, "http://127.0.0.1.example.com/a.m3u8": false, "ftp://127.0.0.1/a.m3u8": false, "https://cdn.example/a.m3u8": true,
	} {
		errs := map[string]string{}
		catalog.CheckVideo(map[string]any{"video_source": "stream", "stream_url": addr}, errs)
		if (errs["stream_url"] == "") != ok {
			t.Errorf("%s: accepted %v, want %v (%v)", addr, errs["stream_url"] == "", ok, errs)
		}
	}
}

func TestCheckCategory(t *testing.T) {
	errs := map[string]string{}
	got := catalog.CheckCategory(map[string]any{"hidden": true, "display_order": 1.5}, errs)
	if got["is_active"] != false || errs["display_order"] != catalog.MsgWholeNumber {
		t.Fatalf("computed %v, errors %v", got, errs)
	}
}
