package courses

import (
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

// Video kinds: how the web plays a video.
const (
	VideoEmbed = "embed" // the YouTube or Vimeo iframe (EmbedURL)
	VideoHLS   = "hls"   // an HLS playlist (hls.js, or Safari natively)
	VideoFile  = "file"  // a plain video file the browser plays itself
)

// Video is what a player needs.
type Video struct {
	Source   string  `json:"source"` // youtube, vimeo, upload, stream
	Kind     string  `json:"kind"`   // one of the Video* kinds
	URL      string  `json:"url"`
	EmbedURL *string `json:"embed_url"`
	HLS      bool    `json:"hls"`
	// Poster and DurationSeconds come from the media library for an
	// uploaded video (nil otherwise).
	Poster          *string  `json:"poster"`
	DurationSeconds *float64 `json:"duration_seconds"`
}

// videoFromURL reads an address of any source (the course's intro video).
func videoFromURL(raw string) *Video {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil
	}
	if id := videourl.YouTubeID(raw); id != "" {
		e := videourl.YouTubeEmbed(id)
		return &Video{Source: "youtube", Kind: VideoEmbed, URL: raw, EmbedURL: &e}
	}
	if id := videourl.VimeoID(raw); id != "" {
		e := videourl.VimeoEmbed(id)
		return &Video{Source: "vimeo", Kind: VideoEmbed, URL: raw, EmbedURL: &e}
	}
	return streamVideo(raw)
}

func streamVideo(raw string) *Video {
	v := &Video{Source: "stream", Kind: VideoFile, URL: raw, HLS: videourl.IsHLS(raw)}
	if v.HLS {
		v.Kind = VideoHLS
	}
	return v
}

// VideoFields is what an item with a video (a lesson, an exclusive video)
// says about it: the source the editor chose, the address of each source,
// and the uploaded asset.
type VideoFields struct {
	Source, YouTube, Vimeo, Stream string
	Upload                         Upload
}

// Upload is an uploaded video's asset as media_public shows it (empty when
// the source is not an upload or the asset is gone). StreamKey names the
// stream in the private store: a reader gets it only as a signed address.
type Upload struct {
	State, StreamKey, PosterURL string
	Duration                    float64
}

// PlayerVideo is an item's playable video, or nil when it has none that
// plays now: a YouTube or Vimeo source whose address names no video, a
// stream without an address, or an upload whose asset is not ready (the
// plugins hold such an item back, but an asset may be reprocessed or
// deleted afterwards). An upload plays at the address sign gives its
// stream for the reader, whose access the caller checked ("": no player).
func PlayerVideo(f VideoFields, sign func(key string, seconds float64) string) *Video {
	switch f.Source {
	case "youtube":
		if id := videourl.YouTubeID(f.YouTube); id != "" {
			e := videourl.YouTubeEmbed(id)
			return &Video{Source: f.Source, Kind: VideoEmbed, URL: strings.TrimSpace(f.YouTube), EmbedURL: &e}
		}
	case "vimeo":
		if id := videourl.VimeoID(f.Vimeo); id != "" {
			e := videourl.VimeoEmbed(id)
			return &Video{Source: f.Source, Kind: VideoEmbed, URL: strings.TrimSpace(f.Vimeo), EmbedURL: &e}
		}
	case "stream":
		if f.Stream != "" {
			return streamVideo(f.Stream)
		}
	case "upload":
		up := f.Upload
		if up.State != "pronto" || up.StreamKey == "" {
			return nil
		}
		u := sign(up.StreamKey, up.Duration)
		if u == "" {
			return nil
		}
		v := &Video{Source: f.Source, Kind: VideoHLS, URL: u, HLS: true}
		if up.PosterURL != "" {
			v.Poster = &up.PosterURL
		}
		if up.Duration > 0 {
			v.DurationSeconds = &up.Duration
		}
		return v
	}
	return nil
}

// playable reports whether a lesson's chosen source names something a
// player can play now.
func playable(l lessonRow) bool {
	return PlayerVideo(l.video, func(key string, _ float64) string { return key }) != nil
}
