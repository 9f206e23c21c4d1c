package courses

import (
	"context"
	"net/url"
	"regexp"
	"strings"
)

// Video is what a player needs.
type Video struct {
	Source   string  `json:"source"` // youtube, vimeo, upload, stream
	URL      string  `json:"url"`
	EmbedURL *string `json:"embed_url"`
	HLS      bool    `json:"hls"`
}

var youtubeIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{6,20}$`)

// youTubeID is the video id of a YouTube address ("" when it is not one).
// plugins/cursos accepts the same forms when an editor saves a lesson.
func youTubeID(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	host := strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(u.Hostname()), "www."), "m.")
	var id string
	switch host {
	case "youtube.com", "youtube-nocookie.com":
		switch {
		case u.Path == "/watch":
			id = u.Query().Get("v")
		case strings.HasPrefix(u.Path, "/embed/"), strings.HasPrefix(u.Path, "/shorts/"), strings.HasPrefix(u.Path, "/live/"):
			id = u.Path[strings.LastIndex(u.Path, "/")+1:]
		}
	case "youtu.be":
		id = strings.TrimPrefix(u.Path, "/")
	}
	if !youtubeIDPattern.MatchString(id) {
		return ""
	}
	return id
}

var vimeoIDPattern = regexp.MustCompile(`^/(?:video/)?([0-9]{3,12})(?:/[0-9a-f]+)?/?$`)

func vimeoID(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if host != "vimeo.com" && host != "player.vimeo.com" {
		return ""
	}
	m := vimeoIDPattern.FindStringSubmatch(u.Path)
	if m == nil {
		return ""
	}
	return m[1]
}

func isHLS(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.HasSuffix(strings.ToLower(u.Path), ".m3u8")
}

// videoFromURL reads an address of any source (the course's intro video).
func videoFromURL(raw string) *Video {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil
	}
	if id := youTubeID(raw); id != "" {
		e := "https://www.youtube-nocookie.com/embed/" + id
		return &Video{Source: "youtube", URL: raw, EmbedURL: &e}
	}
	if id := vimeoID(raw); id != "" {
		e := "https://player.vimeo.com/video/" + id
		return &Video{Source: "vimeo", URL: raw, EmbedURL: &e}
	}
	return &Video{Source: "stream", URL: raw, HLS: isHLS(raw)}
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
		return &Video{Source: "stream", URL: l.stream, HLS: isHLS(l.stream)}, nil
	case "upload":
		if s.media == nil || l.asset == nil {
			return nil, nil
		}
		u, ok, err := s.media.Playback(ctx, *l.asset)
		if err != nil || !ok {
			return nil, err
		}
		return &Video{Source: "upload", URL: u, HLS: isHLS(u)}, nil
	}
	return nil, nil
}

// playable reports whether a lesson's chosen source names something a
// player can play now.
func (s *Service) playable(ctx context.Context, l lessonRow) (bool, error) {
	switch l.source {
	case "youtube":
		return youTubeID(l.youtube) != "", nil
	case "vimeo":
		return vimeoID(l.vimeo) != "", nil
	}
	v, err := s.lessonVideo(ctx, l)
	return v != nil, err
}
