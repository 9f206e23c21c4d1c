package sdk

import (
	"errors"
	"regexp"
)

var (
	publishedTypeRE  = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	publishedFieldRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
)

// PublishedLimit is the number of items a list of published content
// returns for a requested limit (0: 10; at most 50).
func PublishedLimit(limit int) int {
	switch {
	case limit <= 0:
		return 10
	case limit > 50:
		return 50
	}
	return limit
}

// CheckPublishedQuery says what is wrong with a list request of published
// content, or nil: a content type id, a text query of at most 200
// printable characters, at most 8 filters on field names with values of at
// most 200 printable characters, a limit of 0–50.
func CheckPublishedQuery(contentType, text string, filters map[string]string, limit int) error {
	switch {
	case len(contentType) > 40 || !publishedTypeRE.MatchString(contentType):
		return errors.New("type must be a content type id")
	case !printable(text, 200):
		return errors.New("query must be at most 200 printable characters")
	case len(filters) > 8:
		return errors.New("at most 8 filters")
	case limit < 0 || limit > 50:
		return errors.New("limit must be between 0 and 50")
	}
	for k, v := range filters {
		if !publishedFieldRE.MatchString(k) || !printable(v, 200) {
			return errors.New("filters must name fields (lowercase, digits, _) with values of at most 200 printable characters")
		}
	}
	return nil
}
