package community

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/imaging"
)

// Picture limits: the largest upload, the longest side kept, the thumbnail.
const (
	MaxUploadBytes = 10 << 20
	ImageMaxSide   = 1600
	ThumbnailSide  = 400
)

// Messages about an upload.
const (
	MsgImageType     = "Envie uma imagem JPG, PNG, WebP ou GIF."
	MsgImageTooLarge = "A imagem deve ter no máximo 10 MB."
	MsgUploadTooFast = "Você está enviando imagens rápido demais. Aguarde um momento."
	MsgUploadRead    = "Não foi possível ler o envio da imagem. Tente novamente."
)

// Media is a post's picture as readers see it.
type Media struct {
	ID           string  `json:"id"`
	MediaType    string  `json:"media_type"`
	URL          string  `json:"url"`
	ThumbnailURL *string `json:"thumbnail_url"`
	Width        *int    `json:"width"`
	Height       *int    `json:"height"`
	FileName     string  `json:"file_name"`
	FileSize     int64   `json:"file_size"`
	MimeType     string  `json:"mime_type"`
}

func (s *Service) media(m storedMedia) Media {
	out := Media{ID: m.ID, MediaType: m.MediaType, URL: s.o.Storage.URL(m.StoragePath), Width: m.Width, Height: m.Height,
		FileName: m.FileName, FileSize: m.FileSize, MimeType: m.MimeType}
	if m.ThumbnailPath != nil {
		u := s.o.Storage.URL(*m.ThumbnailPath)
		out.ThumbnailURL = &u
	}
	return out
}

func uploadError(msg string) error { return invalid("file", msg) }

// Upload stores a picture userID will attach to a post: the type is judged
// from the bytes (JPEG, PNG, WebP or GIF's first frame), the picture is
// resized to at most ImageMaxSide and written again (no EXIF, no trailing
// payload), with a ThumbnailSide thumbnail when it is larger than that. It
// stays unattached until a post names it.
func (s *Service) Upload(ctx context.Context, userID, fileName string, body io.Reader) (Media, error) {
	raw, err := io.ReadAll(io.LimitReader(body, MaxUploadBytes+1))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return Media{}, uploadError(MsgImageTooLarge)
		}
		return Media{}, &core.Error{Code: core.EINVALID, Message: MsgUploadRead, Fields: map[string]string{"file": MsgUploadRead}, Err: err}
	}
	if len(raw) > MaxUploadBytes {
		return Media{}, uploadError(MsgImageTooLarge)
	}
	if len(raw) == 0 {
		return Media{}, uploadError(MsgImageType)
	}
	if err := s.allow(ctx, s.pool, "community:upload:"+userID, s.o.UploadRule, MsgUploadTooFast); err != nil {
		return Media{}, err
	}
	img, _, err := s.o.Images.Thumbnail(ctx, raw, ImageMaxSide)
	if err != nil {
		var e *core.Error
		if errors.As(err, &e) && e.Code == core.EINVALID {
			msg := e.Message
			if msg == imaging.MsgNotImage || msg == imaging.MsgUnsupported {
				msg = MsgImageType
			}
			return Media{}, &core.Error{Code: core.EINVALID, Message: msg, Fields: map[string]string{"file": msg}, Err: err}
		}
		return Media{}, err
	}
	full, err := imaging.Encode(img)
	if err != nil {
		return Media{}, err
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return Media{}, fmt.Errorf("picture name: %w", err)
	}
	// Fresh names per upload let /uploads/ be cached forever.
	base := "community/" + s.o.Now().UTC().Format("2006/01") + "/" + hex.EncodeToString(nonce)
	key := base + full.Ext
	var thumbKey *string
	stored := []string{}
	cleanup := func() {
		for _, k := range stored {
			if err := s.o.Storage.Delete(context.WithoutCancel(ctx), k); err != nil {
				s.o.Log.WarnContext(ctx, "remove unused picture", "key", k, "err", err)
			}
		}
	}
	if err := s.o.Storage.Put(ctx, key, full.ContentType, bytes.NewReader(full.Data)); err != nil {
		return Media{}, fmt.Errorf("store picture: %w", err)
	}
	stored = append(stored, key)
	if w > ThumbnailSide || h > ThumbnailSide {
		thumb, err := imaging.Encode(imaging.Fit(img, ThumbnailSide))
		if err != nil {
			cleanup()
			return Media{}, err
		}
		k := base + "-thumb" + thumb.Ext
		if err := s.o.Storage.Put(ctx, k, thumb.ContentType, bytes.NewReader(thumb.Data)); err != nil {
			cleanup()
			return Media{}, fmt.Errorf("store thumbnail: %w", err)
		}
		stored = append(stored, k)
		thumbKey = &k
	}
	m := storedMedia{MediaType: "image", StoragePath: key, ThumbnailPath: thumbKey, Width: &w, Height: &h,
		FileName: displayName(fileName, full.Ext), FileSize: int64(len(full.Data)), MimeType: full.ContentType}
	err = s.pool.QueryRow(ctx, `INSERT INTO post_media (uploader_id, media_type, storage_path, thumbnail_path, file_name, file_size, mime_type, width, height, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::text`,
		userID, m.MediaType, m.StoragePath, m.ThumbnailPath, m.FileName, m.FileSize, m.MimeType, w, h, s.o.Now()).Scan(&m.ID)
	if err != nil {
		cleanup()
		return Media{}, fmt.Errorf("record picture: %w", err)
	}
	return s.media(m), nil
}

// displayName is the name a picture is listed under: the uploaded file's
// base name without control characters, at most 255 characters, with the
// extension of what was stored.
func displayName(name, ext string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(strings.TrimSuffix(name, path.Ext(name)))
	if name == "" || name == "." || name == "/" {
		name = "imagem"
	}
	if r := []rune(name); len(r) > 200 {
		name = string(r[:200])
	}
	return name + ext
}

// PruneUnattached deletes pictures uploaded before olderThan and never
// attached (or detached by an edit), with their files, and returns how many.
func (s *Service) PruneUnattached(ctx context.Context, olderThan time.Time) (int, error) {
	rows, err := s.pool.Query(ctx, `DELETE FROM post_media WHERE item_id IS NULL AND created_at < $1
		RETURNING storage_path, coalesce(thumbnail_path, '')`, olderThan)
	if err != nil {
		return 0, fmt.Errorf("prune pictures: %w", err)
	}
	var keys []string
	n := 0
	for rows.Next() {
		var k, t string
		if err := rows.Scan(&k, &t); err != nil {
			rows.Close()
			return 0, fmt.Errorf("prune pictures: %w", err)
		}
		n++
		keys = append(keys, k)
		if t != "" {
			keys = append(keys, t)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("prune pictures: %w", err)
	}
	for _, k := range keys {
		if err := s.o.Storage.Delete(ctx, k); err != nil {
			s.o.Log.WarnContext(ctx, "remove pruned picture", "key", k, "err", err)
		}
	}
	return n, nil
}

// UnattachedTTL is how long an upload may wait for a post.
const UnattachedTTL = 24 * time.Hour

// KeepPruned prunes unattached pictures every interval until ctx ends.
func (s *Service) KeepPruned(ctx context.Context, every time.Duration) {
	for {
		if n, err := s.PruneUnattached(ctx, s.o.Now().Add(-UnattachedTTL)); err != nil && ctx.Err() == nil {
			s.o.Log.Error("prune community pictures", "err", err)
		} else if n > 0 {
			s.o.Log.Info("pruned community pictures", "deleted", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
