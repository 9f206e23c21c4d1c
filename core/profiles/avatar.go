package profiles

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// Avatar limits. The pixel limits are core/imaging's, shared with every
// image the platform accepts.
const (
	MaxAvatarBytes = 5 << 20 // 5 MB, as the upload form says
	AvatarSize     = 512     // longest side after resizing, in pixels
)

func avatarError(msg string) error {
	return core.Invalid(msg, map[string]string{"avatar": msg})
}

var (
	errAvatarTooLarge = "A imagem deve ter no máximo 5 MB."
	errAvatarMissing  = "Selecione uma imagem para enviar."
	// errAvatarRead is any failure reading the upload itself (a cut
	// connection, a malformed multipart body): the client's side, so a 422.
	errAvatarRead = "Não foi possível ler o envio da imagem. Tente novamente."
)

// processedAvatar is an avatar ready to store: re-encoded from its pixels
// only, so EXIF (GPS position, camera) and any trailing payload are gone.
type processedAvatar struct {
	data        []byte
	contentType string
	ext         string
}

// readAvatar reads the upload, refusing it as soon as it passes 5 MB. Every
// read error is the upload's fault (truncated body, broken multipart) and is
// answered as invalid input, never as a server error.
func readAvatar(r io.Reader) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxAvatarBytes+1))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, avatarError(errAvatarTooLarge)
		}
		return nil, &core.Error{Code: core.EINVALID, Message: errAvatarRead,
			Fields: map[string]string{"avatar": errAvatarRead}, Err: fmt.Errorf("read avatar: %w", err)}
	}
	if len(raw) > MaxAvatarBytes {
		return nil, avatarError(errAvatarTooLarge)
	}
	if len(raw) == 0 {
		return nil, avatarError(errAvatarMissing)
	}
	return raw, nil
}

// processAvatar proves raw is a JPEG, PNG or WebP image within the shared
// image limits (judged from its header before decoding), scales it down to
// fit 512×512 and encodes it again: JPEG when opaque, PNG when it has
// transparency.
func (s *Service) processAvatar(ctx context.Context, raw []byte) (processedAvatar, error) {
	dst, _, err := s.images.Thumbnail(ctx, raw, AvatarSize)
	if err != nil {
		var e *core.Error
		if errors.As(err, &e) && e.Code == core.EINVALID {
			// The message names the file's problem; the form shows it
			// under the avatar field.
			return processedAvatar{}, &core.Error{Code: e.Code, Message: e.Message,
				Fields: map[string]string{"avatar": e.Message}, Err: e.Err}
		}
		return processedAvatar{}, err
	}
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
	img, err := s.processAvatar(ctx, raw)
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
