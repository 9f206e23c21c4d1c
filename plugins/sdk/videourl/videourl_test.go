package videourl_test

import (
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

func TestAddresses(t *testing.T) {
	for raw, want := range map[string]string{
		"https://www.youtube.com/watch?v=aqz-KE-bpKQ":    "aqz-KE-bpKQ",
		"https://m.youtube.com/watch?v=aqz-KE-bpKQ&t=10": "aqz-KE-bpKQ",
		"https://youtu.be/aqz-KE-bpKQ":                   "aqz-KE-bpKQ",
		"https://www.youtube.com/embed/aqz-KE-bpKQ":      "aqz-KE-bpKQ",
		"https://www.youtube.com/shorts/aqz-KE-bpKQ":     "aqz-KE-bpKQ",
		"https://www.youtube.com/watch?v=<script>":       "",
		"https://example.com/watch?v=aqz-KE-bpKQ":        "",
		"javascript:alert(1)":                            "",
	} {
		if got := videourl.YouTubeID(raw); got != want {
			t.Errorf("YouTubeID(%q) = %q, want %q", raw, got, want)
		}
	}
	for raw, want := range map[string]string{
		"https://vimeo.com/76979871":                  "76979871",
		"https://player.vimeo.com/video/76979871":     "76979871",
		"https://vimeo.com/76979871/abcdef0123":       "76979871",
		"https://vimeo.com/channels/staffpicks/76979": "",
		"https://evil.com/76979871":                   "",
	} {
		if got := videourl.VimeoID(raw); got != want {
			t.Errorf("VimeoID(%q) = %q, want %q", raw, got, want)
		}
	}
	if !videourl.IsHLS("https://cdn.example.com/v/master.M3U8?token=x") || videourl.IsHLS("https://cdn.example.com/v.mp4") {
		t.Error("IsHLS")
	}
}
