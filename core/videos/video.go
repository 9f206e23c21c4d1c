package videos

import (
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

// Player kinds: how the web plays a video (the same as a lesson's).
const (
	PlayerEmbed = courses.VideoEmbed
	PlayerHLS   = courses.VideoHLS
	PlayerFile  = courses.VideoFile
)

// Player is what a player needs to play a video: one shape for a video and
// a lesson, so the web has one player.
type Player = courses.Video

// uploaded is an uploaded video's asset as media_public shows it (empty
// strings when the video has no asset or it is gone).
type uploaded struct {
	state, hlsURL, posterURL string
	duration                 float64
}

// player is a video's playable source, or nil when it has none that plays
// now: an upload whose asset is not ready (the plugin refuses to publish
// one, but an asset may be reprocessed or deleted afterwards).
func player(source, youtube, vimeo, stream string, up uploaded) *Player {
	switch source {
	case "youtube":
		if id := videourl.YouTubeID(youtube); id != "" {
			e := videourl.YouTubeEmbed(id)
			return &Player{Source: source, Kind: PlayerEmbed, URL: youtube, EmbedURL: &e}
		}
	case "vimeo":
		if id := videourl.VimeoID(vimeo); id != "" {
			e := videourl.VimeoEmbed(id)
			return &Player{Source: source, Kind: PlayerEmbed, URL: vimeo, EmbedURL: &e}
		}
	case "stream":
		if stream != "" {
			p := &Player{Source: source, Kind: PlayerFile, URL: stream, HLS: videourl.IsHLS(stream)}
			if p.HLS {
				p.Kind = PlayerHLS
			}
			return p
		}
	case "upload":
		if up.state == "pronto" && up.hlsURL != "" {
			p := &Player{Source: source, Kind: PlayerHLS, URL: up.hlsURL, HLS: true}
			if up.posterURL != "" {
				p.Poster = &up.posterURL
			}
			if up.duration > 0 {
				p.DurationSeconds = &up.duration
			}
			return p
		}
	}
	return nil
}
