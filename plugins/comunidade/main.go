// Command comunidade is VetClube's community posts content type: the core
// stores the posts (published as they are created), serves the feed, keeps
// likes, comments and pictures (core/community); this plugin declares the
// type. It answers no write hook: a post's rules (empty posts, size, its
// pictures) are the core's, checked before the content platform sees it.
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
