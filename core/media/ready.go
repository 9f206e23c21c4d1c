package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// ReadyFile is an image or a document another part of the core has already
// checked and prepared (the content platform's image and file fields: images
// re-encoded to pixels only, materials judged by their bytes). It belongs in
// the library as it is: no tus upload, no processing.
type ReadyFile struct {
	Kind        Kind // KindImage or KindDocument
	Name        string
	ContentType string
	Ext         string // without the dot, e.g. "jpg"
	Data        []byte
	Width       int // an image's size in pixels; 0 when unknown
	Height      int
	UploadedBy  string // user id; empty when nobody is signed in
}

// AddReady stores f (an image in the public store, a document in the
// private one) and records it as a ready asset, so
// staff find it in the library with where it is used, and deleting it is
// refused while an item holds it. It returns the asset's id and its storage
// key, the value an image or file field keeps: the key lies under
// media/<id>/, which is how the usage lookup recognises it.
func (s *Service) AddReady(ctx context.Context, f ReadyFile) (id, key string, err error) {
	if f.Kind != KindImage && f.Kind != KindDocument {
		return "", "", fmt.Errorf("media: add ready file: kind %q is neither image nor document", f.Kind)
	}
	if len(f.Data) == 0 || f.Ext == "" || f.ContentType == "" {
		return "", "", errors.New("media: add ready file: data, extension and content type are required")
	}
	id = uuid.NewString()
	key = originalKey(id, f.Ext)
	// Documents (course materials) are served only through signed
	// addresses, like streams; images are public.
	store := s.public
	if f.Kind == KindDocument {
		store = s.private
	}
	if err := store.Put(ctx, key, f.ContentType, bytes.NewReader(f.Data)); err != nil {
		return "", "", fmt.Errorf("media: add ready file: store: %w", err)
	}
	var by *string
	if f.UploadedBy != "" {
		by = &f.UploadedBy
	}
	// upload_id is unique for every asset; these never had a tus upload.
	_, err = s.pool.Exec(ctx, `INSERT INTO media_assets (id, kind, state, upload_id, original_name, mime_type, original_key,
			size_bytes, width, height, hls_prefix, progress_percent, uploaded_by)
		VALUES ($1, $2, 'pronto', $3, $4, $5, $6, $7, $8, $9, $10, 100, $11)`,
		id, f.Kind, "direct-"+randomToken(16), displayName(f.Name, f.Ext), f.ContentType, key, len(f.Data),
		max(f.Width, 0), max(f.Height, 0), "media/"+id, by)
	if err != nil {
		if derr := store.DeletePrefix(context.WithoutCancel(ctx), "media/"+id); derr != nil {
			err = errors.Join(err, derr)
		}
		return "", "", fmt.Errorf("media: add ready file: %w", err)
	}
	return id, key, nil
}

// displayName is the name the library shows: the staff member's file name
// when it is printable and at most 255 characters, otherwise a plain one
// with the file's extension.
func displayName(name, ext string) string {
	name = strings.TrimSpace(name)
	ok := name != "" && utf8.ValidString(name) && utf8.RuneCountInString(name) <= 255 &&
		strings.IndexFunc(name, func(r rune) bool { return unicode.IsControl(r) || r == '/' || r == '\\' }) < 0
	if ok {
		return name
	}
	return "arquivo." + ext
}
