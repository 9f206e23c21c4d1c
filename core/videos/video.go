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
// strings when the video has no asset or it is gone). streamKey names the
// stream in the private store: the reader gets it only as a signed address.
type uploaded struct {
	state, streamKey, posterURL string
	duration                    float64
}

// StreamURL signs the address of a protected stream (a master playlist's
// key in the private store) for memberID; core/media's Streams.MediaURL.
type StreamURL func(key, memberID string, mediaSeconds float64) string

// player is a video's playable source, or nil when it has none that plays
// now: an upload whose asset is not ready (the plugin refuses to publish
// one, but an asset may be reprocessed or deleted afterwards). An upload's
// address is signed by sign for the reader, whose access was checked.
func player(source, youtube, vimeo, stream string, up uploaded, sign func(key string, seconds float64) string) *Player {
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
		if up.state == "pronto" && up.streamKey != "" {
			u := sign(up.streamKey, up.duration)
			if u == "" {
				return nil
			}
			p := &Player{Source: source, Kind: PlayerHLS, URL: u, HLS: true}
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
