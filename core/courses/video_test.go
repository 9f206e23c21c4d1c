package courses_test

import (
	"testing"

	"github.com/vetclube/vetclube/core/courses"
)

// TestPlayerVideo checks the one player builder of lessons and exclusive
// videos: each source plays only when its address names a video, and an
// upload only once its asset is ready and its stream is signed.
func TestPlayerVideo(t *testing.T) {
	signed := func(key string, _ float64) string { return "/signed/" + key }
	unsigned := func(string, float64) string { return "" }
	ready := courses.Upload{State: "pronto", StreamKey: "media/a/master.m3u8", PosterURL: "/p.jpg", Duration: 12.5}

	cases := []struct {
		name string
		f    courses.VideoFields
		sign func(string, float64) string
		want *courses.Video // nil: no player
	}{
		{"youtube", courses.VideoFields{Source: "youtube", YouTube: " https://youtu.be/dQw4w9WgXcQ "}, signed,
			&courses.Video{Source: "youtube", Kind: courses.VideoEmbed, URL: "https://youtu.be/dQw4w9WgXcQ"}},
		{"youtube source with a vimeo address", courses.VideoFields{Source: "youtube", YouTube: "https://vimeo.com/76979871"}, signed, nil},
		{"vimeo", courses.VideoFields{Source: "vimeo", Vimeo: "https://vimeo.com/76979871"}, signed,
			&courses.Video{Source: "vimeo", Kind: courses.VideoEmbed, URL: "https://vimeo.com/76979871"}},
		{"vimeo source with only a youtube address", courses.VideoFields{Source: "vimeo", YouTube: "https://youtu.be/dQw4w9WgXcQ"}, signed, nil},
		{"hls stream", courses.VideoFields{Source: "stream", Stream: "https://cdn.example/v/index.m3u8"}, signed,
			&courses.Video{Source: "stream", Kind: courses.VideoHLS, URL: "https://cdn.example/v/index.m3u8", HLS: true}},
		{"file stream", courses.VideoFields{Source: "stream", Stream: "https://cdn.example/v.mp4"}, signed,
			&courses.Video{Source: "stream", Kind: courses.VideoFile, URL: "https://cdn.example/v.mp4"}},
		{"stream without address", courses.VideoFields{Source: "stream"}, signed, nil},
		{"ready upload", courses.VideoFields{Source: "upload", Upload: ready}, signed,
			&courses.Video{Source: "upload", Kind: courses.VideoHLS, URL: "/signed/media/a/master.m3u8", HLS: true}},
		{"upload still processing", courses.VideoFields{Source: "upload", Upload: courses.Upload{State: "processando", StreamKey: "k"}}, signed, nil},
		{"upload whose asset is gone", courses.VideoFields{Source: "upload"}, signed, nil},
		{"upload nobody can sign", courses.VideoFields{Source: "upload", Upload: ready}, unsigned, nil},
		{"unknown source", courses.VideoFields{Source: "ftp", Stream: "ftp://x"}, signed, nil},
	}
	for _, c := range cases {
		got := courses.PlayerVideo(c.f, c.sign)
		if c.want == nil {
			if got != nil {
				t.Errorf("%s: want no player, got %+v", c.name, *got)
			}
			continue
		}
		if got == nil {
			t.Errorf("%s: want a player, got none", c.name)
			continue
		}
		if got.Source != c.want.Source || got.Kind != c.want.Kind || got.URL != c.want.URL || got.HLS != c.want.HLS {
			t.Errorf("%s: got %+v, want %+v", c.name, *got, *c.want)
		}
		if (got.Kind == courses.VideoEmbed) != (got.EmbedURL != nil) {
			t.Errorf("%s: embed address %v for kind %s", c.name, got.EmbedURL, got.Kind)
		}
	}
	up := courses.PlayerVideo(courses.VideoFields{Source: "upload", Upload: ready}, signed)
	if up.Poster == nil || *up.Poster != "/p.jpg" || up.DurationSeconds == nil || *up.DurationSeconds != 12.5 {
		t.Errorf("ready upload: poster %v, duration %v", up.Poster, up.DurationSeconds)
	}
}
