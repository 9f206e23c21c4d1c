// Package storage keeps uploaded files behind a small interface: local disk
// by default (Disk), an S3-compatible object store by configuration (S3),
// without the features that upload knowing which.
//
// Keys are slash-separated relative names such as "avatars/<user>/<random>.jpg".
// Callers choose fresh keys for new content instead of overwriting, which is
// what lets the public URLs be cached for a year.
package storage

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
)

// Store saves and removes blobs and says where the public can fetch them.
type Store interface {
	// Put stores body under key, replacing nothing visible until complete.
	Put(ctx context.Context, key, contentType string, body io.Reader) error
	// Delete removes key; a key that does not exist is not an error.
	Delete(ctx context.Context, key string) error
	// URL is the public address of key.
	URL(key string) string
	// KeyFromURL returns the key behind a URL this store produced, and false
	// for any other URL (an external avatar, for instance).
	KeyFromURL(url string) (string, bool)
}

// ErrNotFound is returned when reading a key that does not exist.
var ErrNotFound = errors.New("storage: object not found")

// validKey accepts only plain relative names: no "..", no leading slash, no
// backslashes, nothing a path join could turn into an escape.
var validKey = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9_.-]*(/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$`)

// ValidKey reports whether key is safe to use with any Store.
func ValidKey(key string) bool {
	return len(key) <= 512 && validKey.MatchString(key) && !strings.Contains(key, "..")
}
