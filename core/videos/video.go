package videos

import (
	"github.com/vetclube/vetclube/core/courses"
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
