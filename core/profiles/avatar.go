package profiles

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"
	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/vetclube/vetclube/core"
)

// Avatar limits.
const (
	MaxAvatarBytes = 5 << 20 // 5 MB, as the upload form says
	AvatarSize     = 512     // longest side after resizing, in pixels
	// maxAvatarPixels refuses images whose header promises a huge canvas: a
	// small file can decode into gigabytes of pixels.
	maxAvatarPixels = 50_000_000
)

func avatarError(msg string) error {
	return core.Invalid(msg, map[string]string{"avatar": msg})
}

var (
	errAvatarTooLarge = "A imagem deve ter no máximo 5 MB."
	errAvatarNotImage = "O arquivo enviado não é uma imagem válida."
	errAvatarType     = "Formato de imagem não suportado. Envie uma imagem JPEG, PNG ou WebP."
	errAvatarHuge     = "A imagem tem dimensões grandes demais."
	errAvatarMissing  = "Selecione uma imagem para enviar."
)

// processedAvatar is an avatar ready to store: re-encoded from its pixels
// only, so EXIF (GPS position, camera) and any trailing payload are gone.
type processedAvatar struct {
	data        []byte
	contentType string
	ext         string
}

// readAvatar reads the upload, refusing it as soon as it passes 5 MB.
func readAvatar(r io.Reader) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxAvatarBytes+1))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, avatarError(errAvatarTooLarge)
		}
		return nil, fmt.Errorf("read avatar: %w", err)
	}
	if len(raw) > MaxAvatarBytes {
		return nil, avatarError(errAvatarTooLarge)
	}
	if len(raw) == 0 {
		return nil, avatarError(errAvatarMissing)
	}
	return raw, nil
}

// processAvatar proves raw is a JPEG, PNG or WebP image by decoding it,
// scales it down to fit 512×512 and encodes it again: JPEG when opaque, PNG
// when it has transparency.
func processAvatar(raw []byte) (processedAvatar, error) {
	var decodeConfig func(io.Reader) (image.Config, error)
	var decode func(io.Reader) (image.Image, error)
	switch sniffed := http.DetectContentType(raw); sniffed {
	case "image/jpeg":
		decodeConfig, decode = jpeg.DecodeConfig, jpeg.Decode
	case "image/png":
		decodeConfig, decode = png.DecodeConfig, png.Decode
	case "image/webp":
		decodeConfig, decode = webp.DecodeConfig, webp.Decode
	default:
		if strings.HasPrefix(sniffed, "image/") {
			return processedAvatar{}, avatarError(errAvatarType)
		}
		return processedAvatar{}, avatarError(errAvatarNotImage)
	}
	cfg, err := decodeConfig(bytes.NewReader(raw))
	if err != nil {
		return processedAvatar{}, avatarError(errAvatarNotImage)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return processedAvatar{}, avatarError(errAvatarNotImage)
	}
	if cfg.Width*cfg.Height > maxAvatarPixels {
		return processedAvatar{}, avatarError(errAvatarHuge)
	}
	src, err := decode(bytes.NewReader(raw))
	if err != nil {
		return processedAvatar{}, avatarError(errAvatarNotImage)
	}

	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > AvatarSize || h > AvatarSize {
		if w >= h {
			w, h = AvatarSize, max(1, h*AvatarSize/b.Dx())
		} else {
			w, h = max(1, w*AvatarSize/b.Dy()), AvatarSize
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)

	var out bytes.Buffer
	if dst.Opaque() {
		if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 85}); err != nil {
			return processedAvatar{}, fmt.Errorf("encode avatar: %w", err)
		}
		return processedAvatar{data: out.Bytes(), contentType: "image/jpeg", ext: ".jpg"}, nil
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&out, dst); err != nil {
		return processedAvatar{}, fmt.Errorf("encode avatar: %w", err)
	}
	return processedAvatar{data: out.Bytes(), contentType: "image/png", ext: ".png"}, nil
}

// SetAvatar stores a new avatar for the user and returns its public URL. The
// previous uploaded avatar is deleted once the new one is saved; an external
// one (a Google picture) is only forgotten.
func (s *Service) SetAvatar(ctx context.Context, userID string, r io.Reader) (string, error) {
	id, err := userUUID(userID)
	if err != nil {
		return "", err
	}
	// Read the whole upload before taking a decoding slot, so slow
	// clients cannot hold the slots.
	raw, err := readAvatar(r)
	if err != nil {
		return "", err
	}
	select {
	case s.imageSlots <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	img, err := processAvatar(raw)
	<-s.imageSlots
	if err != nil {
		return "", err
	}
	if err := s.ensure(ctx, id); err != nil {
		return "", err
	}
	// A fresh name per upload lets /uploads/ be cached forever.
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("avatar name: %w", err)
	}
	key := "avatars/" + id.String() + "/" + hex.EncodeToString(nonce) + img.ext
	if err := s.store.Put(ctx, key, img.contentType, bytes.NewReader(img.data)); err != nil {
		return "", fmt.Errorf("store avatar: %w", err)
	}
	url := s.store.URL(key)
	// The row lock in the sub-select makes concurrent uploads take turns, so
	// each one sees (and deletes) exactly the avatar it replaced.
	var previous string
	err = s.pool.QueryRow(ctx, `
		UPDATE profiles p SET avatar_url = $2, updated_at = now()
		FROM (SELECT avatar_url FROM profiles WHERE user_id = $1 FOR UPDATE) old
		WHERE p.user_id = $1
		RETURNING old.avatar_url`, id, url).Scan(&previous)
	if err != nil {
		if delErr := s.store.Delete(context.WithoutCancel(ctx), key); delErr != nil {
			s.log.ErrorContext(ctx, "avatar: remove unsaved upload", "key", key, "err", delErr)
		}
		if errors.Is(err, pgx.ErrNoRows) {
			return "", errUserNotFound()
		}
		return "", fmt.Errorf("save avatar: %w", err)
	}
	if oldKey, ok := s.store.KeyFromURL(previous); ok && oldKey != key {
		// The new avatar is saved; a file left behind only wastes space, so
		// a failure here is logged, not returned.
		if err := s.store.Delete(context.WithoutCancel(ctx), oldKey); err != nil {
			s.log.ErrorContext(ctx, "avatar: delete replaced file", "key", oldKey, "err", err)
		}
	}
	return url, nil
}
