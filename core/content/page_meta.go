package content

import (
	"context"
	"strings"

	"github.com/vetclube/vetclube/core"
)

// PageMeta is what a link preview shows of an item's page.
type PageMeta struct {
	Title       string
	Description string
}

// PageMetaFor returns the preview of the PWA page at urlPath when it is a
// published item's page (a type's Route + "/" + slug) that visitors may read
// through the public content API; ok is false for any other path.
func (s *Store) PageMetaFor(ctx context.Context, urlPath string) (PageMeta, bool, error) {
	for _, t := range s.types.Types() {
		if t.Route == "" || s.types.OwnAPI(t.ID) {
			continue
		}
		slug, found := strings.CutPrefix(urlPath, t.Route+"/")
		if !found || slug == "" || strings.Contains(slug, "/") {
			continue
		}
		it, err := s.GetPublished(ctx, t.ID, slug, "")
		if core.ErrorCode(err) == core.ENOTFOUND {
			return PageMeta{}, false, nil
		}
		if err != nil {
			return PageMeta{}, false, err
		}
		return PageMeta{Title: it.Title, Description: it.Summary}, true, nil
	}
	return PageMeta{}, false, nil
}
