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

// lessonVideo is a lesson's playable video, or nil when it has none that
// plays now: an upload plays once the media library has processed its
// asset (the plugin holds such a lesson back until then, but an asset may
// be reprocessed or deleted afterwards), at the address sign gives its
// stream for the reader.
func lessonVideo(l lessonRow, sign func(key string, seconds float64) string) *Video {
	switch l.source {
	case "youtube":
		return videoFromURL(l.youtube)
	case "vimeo":
		return videoFromURL(l.vimeo)
	case "stream":
		if l.stream == "" {
			return nil
		}
		return streamVideo(l.stream)
	case "upload":
		if l.media.state != "pronto" || l.media.streamKey == "" {
			return nil
		}
		u := sign(l.media.streamKey, l.media.duration)
		if u == "" {
			return nil
		}
		v := &Video{Source: "upload", Kind: VideoHLS, URL: u, HLS: true}
		if l.media.posterURL != "" {
			v.Poster = &l.media.posterURL
		}
		if l.media.duration > 0 {
			v.DurationSeconds = &l.media.duration
		}
		return v
	}
	return nil
}

// playable reports whether a lesson's chosen source names something a
// player can play now.
func playable(l lessonRow) bool {
	switch l.source {
	case "youtube":
		return videourl.YouTubeID(l.youtube) != ""
	case "vimeo":
		return videourl.VimeoID(l.vimeo) != ""
	}
	return lessonVideo(l, func(key string, _ float64) string { return key }) != nil
}
