package seed

import (
	"context"

	"github.com/vetclube/vetclube/core/app"
)

// MediaVideos makes, uploads and publishes the media library's demo
// videos and returns once they are published (or demoMediaWait has passed),
// with how many it published. The development seed runs it in the
// background; it is idempotent: published videos are left alone, and a
// video whose processing a stopped server left unfinished is waited for and
// published, not made again.
func MediaVideos(ctx context.Context, a *app.App) (int, error) { return demo{a}.mediaVideos(ctx) }

// DemoPostIDs returns the ids of the demo posts by slug (the comments seed
// finds the posts it comments on with it).
func DemoPostIDs(ctx context.Context, a *app.App) (map[string]string, error) {
	return demo{a}.demoPostIDs(ctx)
}
