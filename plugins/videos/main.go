// Command videos is VetClube's exclusive videos content plugin: it declares
// the video and video category types (their fields, the pages at
// /conteudos-exclusivos) and answers the write hooks that need only the item
// itself: a video's duration in seconds, its YouTube/Vimeo addresses, a
// category's computed is_active, and the refusal to publish a video with
// nothing to play. Reading, access, likes, favorites, views and progress
// are the core's (core/videos).
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
