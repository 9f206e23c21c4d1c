package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/google/uuid"
)

// Import adds the local file at path to the library under filename, as if
// uploadedBy (empty: nobody) had uploaded it: the same checks of name, size
// and bytes, the same storage, and a video's processing starts. The file is
// copied, never moved. It returns the new asset's id; bytes of the wrong
// type leave the asset in erro and return its pt-BR reason.
func (s *Service) Import(ctx context.Context, path, filename, uploadedBy string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("media: import %s: %w", path, err)
	}
	kind, err := CheckDeclared(filename, "", fi.Size())
	if err != nil {
		return "", err
	}
	uploadID := randomToken(16)
	// The copy lands where finish fetches a finished tus upload, so it
	// treats both alike.
	dst, err := s.in.Stage(uploadID)
	if err != nil {
		return "", err
	}
	if err := copyImportFile(path, dst); err != nil {
		return "", fmt.Errorf("media: import %s: %w", path, err)
	}
	var by *string
	if uploadedBy != "" {
		by = &uploadedBy
	}
	id := uuid.NewString()
	hls := "media/" + id + "/" + randomToken(12) + "/hls"
	if _, err := s.pool.Exec(ctx, `INSERT INTO media_assets (id, kind, upload_id, original_name, mime_type, size_bytes, hls_prefix, uploaded_by)
		VALUES ($1, $2, $3, $4, '', $5, $6, $7)`, id, kind, uploadID, filename, fi.Size(), hls, by); err != nil {
		s.removeIncoming(ctx, uploadID)
		return "", fmt.Errorf("media: import: create asset: %w", err)
	}
	if _, err := s.finish(ctx, uploadID); err != nil {
		return id, err
	}
	return id, nil
}

func copyImportFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			err = errors.Join(err, os.Remove(dst))
		}
	}()
	_, err = io.Copy(out, in)
	return err
}
