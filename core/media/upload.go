package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // image.DecodeConfig of uploaded GIFs
	_ "image/jpeg" // and JPEGs
	_ "image/png"  // and PNGs
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	tusd "github.com/tus/tusd/v2/pkg/handler"
	expslog "golang.org/x/exp/slog"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/imaging"
)

// UploadsPath is where the tus endpoint is mounted.
const UploadsPath = "/api/admin/media/uploads/"

// AssetIDHeader carries the new asset's id on the creation response, and
// AssetStateHeader its state on the response that completes an upload.
const (
	AssetIDHeader    = "X-Media-Asset-Id"
	AssetStateHeader = "X-Media-Asset-State"
)

// UploadHandler returns the tus 1.0 endpoint (creation, HEAD offset, PATCH
// chunks, termination) served under UploadsPath. Uploads land in the
// incoming directory; the asset row is created with the upload and moves on
// when its last byte arrives (finish).
func (s *Service) UploadHandler() (http.Handler, error) {
	composer := tusd.NewStoreComposer()
	s.in.UseIn(composer)
	// Every instance honours one lock per upload (PostgreSQL advisory
	// locks), so an upload begun on one instance resumes on another.
	if s.locker == nil {
		s.locker = NewPGLocker(s.pool, s.log)
	}
	s.locker.UseIn(composer)
	h, err := tusd.NewHandler(tusd.Config{
		BasePath:             UploadsPath,
		StoreComposer:        composer,
		DisableDownload:      true,
		DisableConcatenation: true,
		Cors:                 &tusd.CorsConfig{Disable: true},
		// tusd logs every request at info through its own slog package;
		// only its warnings and errors are worth a line.
		Logger:                     expslog.New(expslog.NewTextHandler(os.Stderr, &expslog.HandlerOptions{Level: expslog.LevelWarn})),
		PreUploadCreateCallback:    s.preCreate,
		PreFinishResponseCallback:  s.preFinish,
		PreUploadTerminateCallback: s.preTerminate,
	})
	if err != nil {
		return nil, fmt.Errorf("media: tus handler: %w", err)
	}
	// tusd routes on the path after its base. GET (never a tus method)
	// answers the upload's asset; HEAD, routed like GET, is tus's offset.
	tus := jsonErrors(http.StripPrefix(UploadsPath, h), s.log)
	byUpload := httpx.Handle(s.log, func(w http.ResponseWriter, r *http.Request) error {
		a, err := s.AssetOfUpload(r.Context(), strings.TrimPrefix(r.URL.Path, UploadsPath))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, a)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uploadID := strings.TrimPrefix(r.URL.Path, UploadsPath)
		if r.Method == http.MethodPatch && uploadID != "" {
			// A chunk for an upload the sweep is removing (on any
			// instance) is turned away at once rather than waiting for
			// its lock; a chunk already running keeps the sweep off.
			swept, err := beingSwept(r.Context(), s.pool, uploadID)
			if err != nil {
				httpx.WriteError(w, r, s.log, err)
				return
			}
			if swept {
				httpx.WriteError(w, r, s.log, core.Errorf(core.ELOCKED, "%s", MsgUploadExpiring))
				return
			}
		}
		// An upload belongs to whoever created it: anyone else meets no
		// upload at all, whatever they know of its name.
		if uploadID != "" && r.Method != http.MethodPost && r.Method != http.MethodOptions {
			if err := s.ownUpload(r.Context(), uploadID); err != nil {
				if core.ErrorCode(err) == core.ENOTFOUND && r.Method != http.MethodGet {
					err = core.Errorf(core.ENOTFOUND, "%s", tusMessages["ERR_UPLOAD_NOT_FOUND"])
				}
				httpx.WriteError(w, r, s.log, err)
				return
			}
		}
		if r.Method == http.MethodGet {
			byUpload.ServeHTTP(w, r)
			return
		}
		tus.ServeHTTP(w, r)
	}), nil
}

// ownUpload is nil when the signed-in caller created upload uploadID, and
// ENOTFOUND otherwise (another staff member's upload, an unknown one).
func (s *Service) ownUpload(ctx context.Context, uploadID string) error {
	p := core.PrincipalFrom(ctx)
	var mine bool
	err := s.pool.QueryRow(ctx, `SELECT uploaded_by IS NOT DISTINCT FROM nullif($2, '')::uuid FROM media_assets WHERE upload_id = $1`,
		uploadID, p.UserID).Scan(&mine)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && (!mine || !p.Authenticated()) {
		return core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return fmt.Errorf("media: owner of upload: %w", err)
	}
	return nil
}

// AssetOfUpload returns the asset of a tus upload id, with its usage.
func (s *Service) AssetOfUpload(ctx context.Context, uploadID string) (Asset, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT id FROM media_assets WHERE upload_id = $1`, uploadID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return Asset{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return Asset{}, fmt.Errorf("media: asset of upload %s: %w", uploadID, err)
	}
	return s.Get(ctx, id)
}

// refusal is a tus error carrying the pt-BR message staff read; jsonErrors
// answers it in the API's error shape.
func refusal(status int, msg string) tusd.Error {
	return tusd.Error{ErrorCode: refusedCode, Message: msg, HTTPResponse: tusd.HTTPResponse{
		StatusCode: status, Body: refusedCode + ": " + msg + "\n", Header: tusd.HTTPHeader{"Content-Type": "text/plain; charset=utf-8"}}}
}

// asRefusal turns a *core.Error into a tus error with its HTTP status.
func asRefusal(err error) error {
	var e *core.Error
	if errors.As(err, &e) && e.Code != core.EINTERNAL {
		return refusal(httpx.Status(e.Code), e.Message)
	}
	return err
}

// preCreate checks the declared name, type and size and creates the asset
// (enviando) whose id the client gets in AssetIDHeader.
func (s *Service) preCreate(ev tusd.HookEvent) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
	ctx := ev.Context
	if ev.Upload.SizeIsDeferred {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, refusal(http.StatusBadRequest, MsgNoLength)
	}
	name := ev.Upload.MetaData["filename"]
	kind, err := CheckDeclared(name, ev.Upload.MetaData["filetype"], ev.Upload.Size)
	if err != nil {
		status := http.StatusBadRequest
		if core.ErrorCode(err) == core.ETOOLARGE {
			status = http.StatusRequestEntityTooLarge
		}
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, refusal(status, core.ErrorMessage(err))
	}
	uploadID := randomToken(16)
	var by *string
	if p := core.PrincipalFrom(ctx); p.Authenticated() {
		by = &p.UserID
	}
	id := uuid.NewString()
	// The random token in the stream's folder keeps it unguessable from the
	// public poster URL, which names the asset.
	hls := "media/" + id + "/" + randomToken(12) + "/hls"
	_, err = s.pool.Exec(ctx, `INSERT INTO media_assets (id, kind, upload_id, original_name, mime_type, size_bytes, hls_prefix, uploaded_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, kind, uploadID, name, ev.Upload.MetaData["filetype"], ev.Upload.Size, hls, by)
	if err != nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, fmt.Errorf("media: create asset: %w", err)
	}
	return tusd.HTTPResponse{Header: tusd.HTTPHeader{AssetIDHeader: id}},
		tusd.FileInfoChanges{ID: uploadID}, nil
}

// preFinish runs when the last byte has arrived, before the client's
// answer: the client learns whether its file was accepted.
func (s *Service) preFinish(ev tusd.HookEvent) (tusd.HTTPResponse, error) {
	a, err := s.finish(ev.Context, ev.Upload.ID)
	if err != nil {
		return tusd.HTTPResponse{}, asRefusal(err)
	}
	return tusd.HTTPResponse{Header: tusd.HTTPHeader{AssetIDHeader: a.ID, AssetStateHeader: string(a.State)}}, nil
}

// preTerminate lets a client cancel its upload while it is in progress: the
// asset goes with it.
func (s *Service) preTerminate(ev tusd.HookEvent) (tusd.HTTPResponse, error) {
	if _, err := s.pool.Exec(ev.Context, `DELETE FROM media_assets WHERE upload_id = $1 AND state = 'enviando'`, ev.Upload.ID); err != nil {
		return tusd.HTTPResponse{}, fmt.Errorf("media: cancel upload: %w", err)
	}
	return tusd.HTTPResponse{}, nil
}

// finish moves a complete upload on: its bytes are checked, the file goes
// into storage under media/<id>/original.<ext> and the asset becomes
// processando (videos, whose processing starts) or pronto. Bytes of the
// wrong type put the asset in erro and the file is removed. It is
// idempotent: an asset no longer enviando is returned as it is, and a file
// already moved (a crash between the move and the update) is found in
// storage.
func (s *Service) finish(ctx context.Context, uploadID string) (Asset, error) {
	var id string
	var kind Kind
	var state State
	err := s.pool.QueryRow(ctx, `SELECT id, kind, state FROM media_assets WHERE upload_id = $1`, uploadID).Scan(&id, &kind, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return Asset{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return Asset{}, fmt.Errorf("media: finish %s: %w", uploadID, err)
	}
	if state != StateUploading {
		return s.asset(ctx, id)
	}
	// Video originals are never served; documents only through signed
	// addresses (StreamPath); images are public.
	store := s.public
	if kind != KindImage {
		store = s.private
	}
	format, key, err := s.storeOriginal(ctx, id, kind, uploadID, store)
	var reason *badBytes
	if errors.As(err, &reason) {
		s.removeIncoming(ctx, uploadID)
		if _, err := s.pool.Exec(ctx, `UPDATE media_assets SET state = 'erro', error = $2, updated_at = now()
			WHERE id = $1 AND state = 'enviando'`, id, reason.msg); err != nil {
			return Asset{}, fmt.Errorf("media: refuse %s: %w", id, err)
		}
		return Asset{}, core.Errorf(core.EINVALID, "%s", reason.msg)
	}
	if err != nil {
		return Asset{}, err
	}
	s.removeIncoming(ctx, uploadID)

	next := StateReady
	var width, height int
	if kind == KindVideo {
		next = StateProcessing
	} else if kind == KindImage {
		width, height = imageSize(store, key)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE media_assets SET state = $2, original_key = $3, mime_type = $4, width = $5, height = $6,
		attempt = CASE WHEN $2 = 'processando' THEN 1 ELSE attempt END, progress_percent = CASE WHEN $2 = 'pronto' THEN 100 ELSE 0 END,
		updated_at = now()
		WHERE id = $1 AND state = 'enviando'`, id, next, key, format.MIME, width, height)
	if err != nil {
		return Asset{}, fmt.Errorf("media: finish %s: %w", id, err)
	}
	if tag.RowsAffected() == 1 && next == StateProcessing {
		s.start(ctx, id, 1)
	}
	return s.asset(ctx, id)
}

// errNoUpload is an upload whose file is neither incoming nor stored (a
// crash between creating the row and the file): it stays enviando.
var errNoUpload = core.Errorf(core.ENOTFOUND, MsgNotFound)

// badBytes is an upload whose content is not of its declared kind.
type badBytes struct{ msg string }

func (b *badBytes) Error() string { return b.msg }

// storeOriginal checks the upload's first bytes and copies it into store.
func (s *Service) storeOriginal(ctx context.Context, id string, kind Kind, uploadID string, store Storage) (Format, string, error) {
	bin, err := s.in.Fetch(ctx, uploadID)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Format{}, "", err
	}
	var f *os.File
	if err == nil {
		f, err = os.Open(bin)
	}
	if errors.Is(err, fs.ErrNotExist) {
		// Moved already by a finish that crashed before its update.
		for _, ext := range []string{"mp4", "mov", "webm", "mkv", "jpg", "png", "webp", "gif", "pdf"} {
			key := originalKey(id, ext)
			if p, err := store.LocalPath(key); err == nil {
				head, _ := readHead(p)
				if format, err := checkBytes(kind, head); err == nil {
					return format, key, nil
				}
			}
		}
		return Format{}, "", errNoUpload
	}
	if err != nil {
		return Format{}, "", fmt.Errorf("media: open upload: %w", err)
	}
	head := make([]byte, SniffLen)
	n, err := io.ReadFull(f, head)
	f.Close()
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Format{}, "", fmt.Errorf("media: read upload: %w", err)
	}
	format, err := checkBytes(kind, head[:n])
	if err != nil {
		return Format{}, "", &badBytes{msg: err.Error()}
	}
	if kind == KindImage {
		return s.storeImage(ctx, id, bin, store)
	}
	key := originalKey(id, format.Ext)
	if err := store.PutFile(ctx, key, format.MIME, bin); err != nil {
		return Format{}, "", fmt.Errorf("media: store original of %s: %w", id, err)
	}
	return format, key, nil
}

// ImageMaxSide is the longest side a library image is kept at, as the
// content platform's image fields keep theirs.
const ImageMaxSide = content.ImageMaxSide

// storeImage keeps an uploaded image as pixels only: it is checked against
// the image limits from its header before anything is decoded (a few bytes
// may declare 65535×65535), decoded in the shared bounded decoder, scaled
// to ImageMaxSide and encoded again (JPEG, or PNG with transparency), so no
// metadata, comment or payload appended to the file is ever served.
func (s *Service) storeImage(ctx context.Context, id, bin string, store Storage) (Format, string, error) {
	raw, err := os.ReadFile(bin)
	if err != nil {
		return Format{}, "", fmt.Errorf("media: read image upload: %w", err)
	}
	img, _, err := libraryImages().Thumbnail(ctx, raw, ImageMaxSide)
	if err != nil {
		if core.ErrorCode(err) == core.EINVALID {
			return Format{}, "", &badBytes{msg: core.ErrorMessage(err)}
		}
		return Format{}, "", err
	}
	enc, err := imaging.Encode(img)
	if err != nil {
		return Format{}, "", fmt.Errorf("media: encode image %s: %w", id, err)
	}
	ext := strings.TrimPrefix(enc.Ext, ".")
	key := originalKey(id, ext)
	if err := store.Put(ctx, key, enc.ContentType, bytes.NewReader(enc.Data)); err != nil {
		return Format{}, "", fmt.Errorf("media: store image of %s: %w", id, err)
	}
	return Format{Kind: KindImage, Ext: ext, MIME: enc.ContentType}, key, nil
}

// libraryImages decodes library images under the shared limits, GIF
// included (kept as its first frame), in the process-wide slots.
var libraryImages = sync.OnceValue(func() *imaging.Decoder {
	lim := imaging.DefaultLimits
	lim.AllowGIF = true
	return imaging.Shared().WithLimits(lim)
})

func originalKey(id, ext string) string { return "media/" + id + "/original." + ext }

func readHead(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, SniffLen)
	n, err := io.ReadFull(f, head)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return head[:n], err
}

// imageSize reads an image's dimensions (0×0 for formats without a
// standard decoder, such as WebP).
func imageSize(store Storage, key string) (int, int) {
	p, err := store.LocalPath(key)
	if err != nil {
		return 0, 0
	}
	f, err := os.Open(p)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}

// removeIncoming deletes an upload's bytes and its tus record.
func (s *Service) removeIncoming(ctx context.Context, uploadID string) {
	if err := s.in.Remove(context.WithoutCancel(ctx), uploadID); err != nil {
		s.log.WarnContext(ctx, "media: remove incoming upload", "upload", uploadID, "err", err)
	}
}

// start starts attempt of a video's processing. A video whose processing
// cannot start goes to erro, from which staff retry it: it never waits in
// processando for a workflow that does not exist.
func (s *Service) start(ctx context.Context, id string, attempt int) {
	reason := ""
	if s.proc == nil {
		reason = MsgNoProcessing
	} else if err := s.proc.Start(ctx, id, attempt); err != nil {
		s.log.ErrorContext(ctx, "media: start processing", "asset", id, "attempt", attempt, "err", err)
		reason = MsgStartFailed
	}
	if reason == "" {
		return
	}
	if _, err := s.pool.Exec(context.WithoutCancel(ctx), `UPDATE media_assets SET state = 'erro', error = $3, updated_at = now()
		WHERE id = $1 AND attempt = $2 AND state = 'processando'`, id, attempt, reason); err != nil {
		s.log.ErrorContext(ctx, "media: record failed start", "asset", id, "err", err)
	}
}

// Resume finishes what a stopped server left half done: uploads whose last
// byte arrived but whose asset is still enviando, and videos in
// processando whose processing may never have started (starting an attempt
// that runs already is a no-op).
func (s *Service) Resume(ctx context.Context) error {
	rows, err := s.pool.Query(ctx, `SELECT id, upload_id, state, attempt FROM media_assets WHERE state IN ('enviando', 'processando')`)
	if err != nil {
		return fmt.Errorf("media: resume: %w", err)
	}
	type pending struct {
		id, upload string
		state      State
		attempt    int
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (pending, error) {
		var p pending
		return p, r.Scan(&p.id, &p.upload, &p.state, &p.attempt)
	})
	if err != nil {
		return fmt.Errorf("media: resume: %w", err)
	}
	for _, p := range list {
		if p.state == StateProcessing {
			s.start(ctx, p.id, p.attempt)
			continue
		}
		// An upload gone from the incoming folder may have been moved
		// already: finish looks for it in storage.
		if up, err := s.in.Upload(ctx, p.upload); err == nil {
			info, err := up.GetInfo(ctx)
			if err != nil || info.SizeIsDeferred || info.Offset != info.Size {
				continue // still uploading: the client resumes it
			}
		}
		if _, err := s.finish(ctx, p.upload); err != nil && core.ErrorCode(err) == core.EINTERNAL {
			s.log.ErrorContext(ctx, "media: resume upload", "asset", p.id, "err", err)
		}
	}
	return nil
}
