// Package videourl reads the addresses editors give for a video (a YouTube
// or Vimeo page, an HLS stream) into what a player embeds. Content plugins
// check editors' addresses with it and the core builds players with it, so
// both accept exactly the same forms.
package videourl

import (
	"net/url"
	"regexp"
	"strings"
)

var youtubeIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{6,20}$`)

// YouTubeID is the video id of a YouTube address ("" when it is not one):
// watch?v=, youtu.be/, /embed/, /shorts/ and /live/ forms, with or without
// www. or m.
func YouTubeID(raw string) string {
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

// VimeoID is the video id of a Vimeo address ("" when it is not one).
func VimeoID(raw string) string {
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

// IsHLS says whether an address is an HLS playlist (.m3u8).
func IsHLS(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.HasSuffix(strings.ToLower(u.Path), ".m3u8")
}

// YouTubeEmbed is the privacy-enhanced embed address of a YouTube id.
func YouTubeEmbed(id string) string { return "https://www.youtube-nocookie.com/embed/" + id }

// VimeoEmbed is the player address of a Vimeo id.
func VimeoEmbed(id string) string { return "https://player.vimeo.com/video/" + id }
