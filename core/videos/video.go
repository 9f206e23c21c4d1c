package videos

import "github.com/vetclube/vetclube/plugins/sdk/videourl"

// Player kinds: how the web plays a video.
const (
	PlayerEmbed = "embed" // the YouTube or Vimeo iframe (EmbedURL)
	PlayerHLS   = "hls"   // an HLS playlist (hls.js, or Safari natively)
	PlayerFile  = "file"  // a plain video file the browser plays itself
)

// Player is what a player needs to play a video.
type Player struct {
	Source   string  `json:"source"` // youtube, vimeo, stream, upload
	Kind     string  `json:"kind"`   // one of the Player* kinds
	URL      string  `json:"url"`
	EmbedURL *string `json:"embed_url"`
	HLS      bool    `json:"hls"`
	// Poster and DurationSeconds come from the media library for an
	// uploaded video (nil otherwise).
	Poster          *string  `json:"poster"`
	DurationSeconds *float64 `json:"duration_seconds"`
}

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
