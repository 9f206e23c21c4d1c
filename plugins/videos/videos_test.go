package main

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func TestValidateAndPublishRules(t *testing.T) {
	ctx := context.Background()
	check := func(typ string, f map[string]any) sdk.ContentCheck {
		t.Helper()
		c, err := Validate(ctx, nil, sdk.ContentItem{Type: typ, Fields: f})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := check(VideoType, map[string]any{"video_source": "youtube", "youtube_url": "https://youtu.be/aqz-KE-bpKQ", "duration": "1:02:03"})
	if len(c.Errors) != 0 || c.Computed["duration_seconds"] != float64(3723) {
		t.Fatalf("valid video: %+v", c)
	}
	c = check(VideoType, map[string]any{"video_source": "vimeo", "youtube_url": "https://example.com/v", "stream_url": "http://x/y.m3u8"})
	if c.Errors["youtube_url"] != MsgYouTubeURL || c.Errors["vimeo_url"] != MsgSourceMissing || c.Errors["stream_url"] != MsgStreamURL {
		t.Fatalf("errors: %+v", c.Errors)
	}
	if c := check(CategoryType, map[string]any{"hidden": true}); c.Computed["is_active"] != false {
		t.Fatalf("hidden category active: %+v", c)
	}
	for f, want := range map[string]string{
		"upload":  MsgUploadNotReady,
		"youtube": "",
		"stream":  MsgNothingToPlay,
		"":        MsgNothingToPlay,
	} {
		fields := map[string]any{"video_source": f, "youtube_url": "https://youtu.be/aqz-KE-bpKQ", "video_asset": "x"}
		got, err := BeforeTransition(ctx, nil, sdk.ContentItem{Type: VideoType, Fields: fields}, "publicado")
		if err != nil || got != want {
			t.Fatalf("publish %q: %q, want %q", f, got, want)
		}
	}
}
