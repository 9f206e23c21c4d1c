package courses

import (
	"context"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

// Video is what a player needs.
type Video struct {
	Source   string  `json:"source"` // youtube, vimeo, upload, stream
	URL      string  `json:"url"`
	EmbedURL *string `json:"embed_url"`
	HLS      bool    `json:"hls"`
}

// videoFromURL reads an address of any source (the course's intro video).
func videoFromURL(raw string) *Video {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil
	}
	if id := videourl.YouTubeID(raw); id != "" {
		e := videourl.YouTubeEmbed(id)
		return &Video{Source: "youtube", URL: raw, EmbedURL: &e}
	}
	if id := videourl.VimeoID(raw); id != "" {
		e := videourl.VimeoEmbed(id)
		return &Video{Source: "vimeo", URL: raw, EmbedURL: &e}
	}
	return &Video{Source: "stream", URL: raw, HLS: videourl.IsHLS(raw)}
}

// lessonVideo is a lesson's playable video, or nil when it has none that
// plays (an upload the media pipeline has not made ready).
func (s *Service) lessonVideo(ctx context.Context, l lessonRow) (*Video, error) {
	switch l.source {
	case "youtube":
		return videoFromURL(l.youtube), nil
	case "vimeo":
		return videoFromURL(l.vimeo), nil
	case "stream":
		if l.stream == "" {
			return nil, nil
		}
		return &Video{Source: "stream", URL: l.stream, HLS: videourl.IsHLS(l.stream)}, nil
	case "upload":
		if s.media == nil || l.asset == nil {
			return nil, nil
		}
		u, ok, err := s.media.Playback(ctx, *l.asset)
		if err != nil || !ok {
			return nil, err
		}
		return &Video{Source: "upload", URL: u, HLS: videourl.IsHLS(u)}, nil
	}
	return nil, nil
}

// playable reports whether a lesson's chosen source names something a
// player can play now.
func (s *Service) playable(ctx context.Context, l lessonRow) (bool, error) {
	switch l.source {
	case "youtube":
		return videourl.YouTubeID(l.youtube) != "", nil
	case "vimeo":
		return videourl.VimeoID(l.vimeo) != "", nil
	}
	v, err := s.lessonVideo(ctx, l)
	return v != nil, err
}
