package videos

import "github.com/vetclube/vetclube/plugins/sdk/videourl"

// Player is what a player needs to play a video.
type Player struct {
	Source   string  `json:"source"` // youtube, vimeo, stream
	URL      string  `json:"url"`
	EmbedURL *string `json:"embed_url"`
	HLS      bool    `json:"hls"`
}

// player is a video's playable source, or nil when it has none that plays
// now (an upload waits for the media pipeline; the plugin refuses to
// publish it, so this only guards against older rows).
func player(source, youtube, vimeo, stream string) *Player {
	switch source {
	case "youtube":
		if id := videourl.YouTubeID(youtube); id != "" {
			e := videourl.YouTubeEmbed(id)
			return &Player{Source: source, URL: youtube, EmbedURL: &e}
		}
	case "vimeo":
		if id := videourl.VimeoID(vimeo); id != "" {
			e := videourl.VimeoEmbed(id)
			return &Player{Source: source, URL: vimeo, EmbedURL: &e}
		}
	case "stream":
		if stream != "" {
			return &Player{Source: source, URL: stream, HLS: videourl.IsHLS(stream)}
		}
	}
	return nil
}
