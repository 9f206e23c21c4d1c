// Package media is the media library: files staff upload (videos, images,
// PDFs) through resumable tus uploads, their checks, their storage, the
// admin API and the store the video processing writes its results through
// (ProcessingStore). It owns the table media_assets; other packages read
// assets through the view media_public or through this package's API.
//
// An asset's life: enviando (upload in progress) → processando (video
// being transcoded) → pronto | erro. Images and PDFs become pronto as soon
// as their bytes are checked.
package media

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/storage"
)

// State is where an asset is in its life.
type State string

const (
	StateUploading  State = "enviando"
	StateProcessing State = "processando"
	StateReady      State = "pronto"
	StateFailed     State = "erro"
)

// States lists every state, for filters.
var States = []State{StateUploading, StateProcessing, StateReady, StateFailed}

// Messages of the admin API.
const (
	MsgNotFound       = "Arquivo de mídia não encontrado."
	MsgUploadExpiring = "Este envio ficou parado por mais de 24 horas e está sendo removido. Envie o arquivo de novo."
	MsgRetryNotFailed = "Só é possível tentar de novo um arquivo com erro."
	MsgRetryNoSource  = "O arquivo original não foi guardado. Envie o arquivo novamente."
	MsgInUse          = "Este arquivo está em uso em: %s."
	MsgNoProcessing   = "O processamento de vídeos não está disponível neste servidor. Tente novamente mais tarde."
	MsgStartFailed    = "Não foi possível iniciar o processamento do vídeo. Tente novamente."
	MsgDeleteOthers   = "Só revisores e superadministradores podem excluir arquivos enviados por outra pessoa."
	MsgCancelOthers   = "Só revisores e superadministradores podem cancelar o processamento de vídeos enviados por outra pessoa."
	MsgCancelNotBusy  = "Só é possível cancelar um vídeo em processamento."
	// MsgProcessingCancelled is the reason a cancelled video keeps in erro.
	MsgProcessingCancelled = "O processamento foi cancelado pela equipe. Use “Tentar novamente” para processar o vídeo de novo."
)

// Use is one content item referencing an asset.
type Use struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Title string `json:"title"`
	// Hidden is an item the reader may not see: counted, with only its type.
	Hidden bool `json:"hidden,omitempty"`
}

// UsedIn lists, by asset id, the content items (drafts or published) that
// reference each of assetIDs, in one lookup; core/content answers it.
type UsedIn func(ctx context.Context, assetIDs []string) (map[string][]Use, error)

// Storage is where originals and processed files go. The public store is
// served under /uploads/ (images, posters, thumbnails); the private one
// holds video originals, never served, and the protected files (HLS
// streams and documents), served only through signed addresses
// (StreamPath) that the features owning them hand out to members with
// access.
type Storage interface {
	storage.Store
	// PutFile moves the local file src into key.
	PutFile(ctx context.Context, key, contentType, src string) error
	// LocalPath is the file holding key, or storage.ErrNotFound.
	LocalPath(key string) (string, error)
	// DeletePrefix removes every key under a folder.
	DeletePrefix(ctx context.Context, prefix string) error
}

// Options are a Service's dependencies.
type Options struct {
	// Public serves images, posters and thumbnails.
	Public Storage
	// Private keeps video originals (never served), HLS streams and
	// documents (served through Streams).
	Private Storage
	// Streams signs the addresses of protected files the library shows
	// staff (nil: none shown).
	Streams *Streams
	// IncomingDir holds the tus uploads in progress, unless Incoming is
	// set (uploads kept in S3).
	IncomingDir string
	Incoming    Incoming
	// Processing starts video processing; nil until SetProcessing.
	Processing Processing
	// UsedIn finds the content items using an asset (nil: none).
	UsedIn UsedIn
	Log    *slog.Logger
}

// Service is the media library.
type Service struct {
	pool    *pgxpool.Pool
	public  Storage
	private Storage
	in      Incoming
	proc    Processing
	usedIn  UsedIn
	log     *slog.Logger
	locker  *PGLocker
	streams *Streams
}

// New returns the media library on pool.
func New(pool *pgxpool.Pool, opts Options) (*Service, error) {
	if opts.Public == nil || opts.Private == nil || opts.IncomingDir == "" && opts.Incoming == nil {
		return nil, errors.New("media: public and private storage and an incoming directory are required")
	}
	in := opts.Incoming
	if in == nil {
		disk, err := NewDiskIncoming(opts.IncomingDir)
		if err != nil {
			return nil, err
		}
		in = disk
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, public: opts.Public, private: opts.Private, in: in,
		proc: opts.Processing, usedIn: opts.UsedIn, log: log, streams: opts.Streams}, nil
}

// Close stops the upload lock's listener (UploadHandler started it).
func (s *Service) Close() {
	if s.locker != nil {
		s.locker.Close()
	}
}

// SetProcessing sets how videos are processed (Temporal, wired after the
// service exists).
func (s *Service) SetProcessing(p Processing) { s.proc = p }

// Asset is one media library entry as the admin API shows it.
type Asset struct {
	ID              string         `json:"id"`
	Kind            Kind           `json:"kind"`
	State           State          `json:"state"`
	ProgressPercent int            `json:"progress_percent"`
	Progress        map[string]int `json:"progress"`
	Error           string         `json:"error"`
	OriginalName    string         `json:"original_name"`
	MIMEType        string         `json:"mime_type"`
	SizeBytes       int64          `json:"size_bytes"`
	DurationSeconds float64        `json:"duration_seconds"`
	Width           int            `json:"width"`
	Height          int            `json:"height"`
	// URL is where an image or document is served; HLSURL a video's
	// stream. A document's and a stream's are signed addresses for the
	// staff member reading the library, valid for a few hours.
	URL           string   `json:"url"`
	HLSURL        string   `json:"hls_url"`
	PosterURL     string   `json:"poster_url"`
	ThumbnailURLs []string `json:"thumbnail_urls"`
	// UploadID is the tus upload's secret name: only its uploader knows it
	// (from the creation answer), so it never leaves the server otherwise.
	UploadID   string    `json:"-"`
	Attempt    int       `json:"attempt"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	UploadedBy *string   `json:"uploaded_by"`
	UsedIn     []Use     `json:"used_in"`
	// Pictures are what an image field may hold from this asset once it is
	// ready: an image itself, a video's poster and generated thumbnails.
	Pictures []Picture `json:"pictures"`

	originalKey string
	hlsPrefix   string
	masterKey   string
}

// Picture is one picture of an asset: Key is the storage key an image field
// keeps, Role says which picture it is (image, poster or thumbnail).
type Picture struct {
	Key  string `json:"key"`
	URL  string `json:"url"`
	Role string `json:"role"`
}

// assetColumns are read by scanAsset, in its order.
const assetColumns = `id, kind, state, progress_percent, progress, error, original_name, mime_type, size_bytes,
	duration_seconds, width, height, original_key, poster_key, thumbnail_keys, master_key, hls_prefix,
	upload_id, attempt, created_at, updated_at, uploaded_by`

func (s *Service) scanAsset(row pgx.Row) (Asset, error) {
	var a Asset
	var posterKey string
	var thumbs []string
	err := row.Scan(&a.ID, &a.Kind, &a.State, &a.ProgressPercent, &a.Progress, &a.Error, &a.OriginalName, &a.MIMEType,
		&a.SizeBytes, &a.DurationSeconds, &a.Width, &a.Height, &a.originalKey, &posterKey, &thumbs, &a.masterKey,
		&a.hlsPrefix, &a.UploadID, &a.Attempt, &a.CreatedAt, &a.UpdatedAt, &a.UploadedBy)
	if err != nil {
		return a, err
	}
	if a.Progress == nil {
		a.Progress = map[string]int{}
	}
	// A stream's and a document's addresses are signed for their reader
	// (signFor); only an image's own file is public.
	if a.Kind == KindImage && a.State == StateReady && a.originalKey != "" {
		a.URL = s.public.URL(a.originalKey)
	}
	switch {
	case posterKey != "":
		a.PosterURL = s.public.URL(posterKey)
	case a.Kind == KindImage:
		a.PosterURL = a.URL
	}
	a.ThumbnailURLs = make([]string, 0, len(thumbs))
	for _, k := range thumbs {
		a.ThumbnailURLs = append(a.ThumbnailURLs, s.public.URL(k))
	}
	a.UsedIn = []Use{}
	a.Pictures = []Picture{}
	if a.State == StateReady {
		pic := func(key, role string) {
			a.Pictures = append(a.Pictures, Picture{Key: key, URL: s.public.URL(key), Role: role})
		}
		switch a.Kind {
		case KindImage:
			pic(a.originalKey, "image")
		case KindVideo:
			if posterKey != "" {
				pic(posterKey, "poster")
			}
			for _, k := range thumbs {
				pic(k, "thumbnail")
			}
		}
	}
	return a, nil
}

// signFor fills in the signed addresses of a's protected files for
// memberID (a staff member reading the library).
func (s *Service) signFor(a *Asset, memberID string) {
	if a.State != StateReady || memberID == "" {
		return
	}
	switch {
	case a.Kind == KindVideo && a.masterKey != "":
		a.HLSURL = s.streams.MediaURL(a.masterKey, memberID, a.DurationSeconds)
	case a.Kind == KindDocument && a.originalKey != "":
		a.URL = s.streams.MediaURL(a.originalKey, memberID, 0)
	}
}

// asset reads one asset without its usage.
func (s *Service) asset(ctx context.Context, id string) (Asset, error) {
	if !validID(id) {
		return Asset{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	a, err := s.scanAsset(s.pool.QueryRow(ctx, `SELECT `+assetColumns+` FROM media_assets WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Asset{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return Asset{}, fmt.Errorf("media: read asset %s: %w", id, err)
	}
	return a, nil
}

// Summary is what content hooks see of an asset a field points to.
type Summary struct {
	ID              string  `json:"id"`
	Kind            Kind    `json:"kind"`
	State           State   `json:"state"`
	ProgressPercent int     `json:"progress_percent"`
	DurationSeconds float64 `json:"duration_seconds"`
	Error           string  `json:"error"`
}

// Summaries returns the assets among ids, keyed by id; ids that are not
// assets (a storage key, a typo) are simply absent.
func (s *Service) Summaries(ctx context.Context, ids []string) (map[string]Summary, error) {
	valid := make([]string, 0, len(ids))
	for _, id := range ids {
		if validID(id) {
			valid = append(valid, id)
		}
	}
	out := make(map[string]Summary, len(valid))
	if len(valid) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT id, kind, state, progress_percent, duration_seconds, error
		FROM media_assets WHERE id = ANY($1::uuid[])`, valid)
	if err != nil {
		return nil, fmt.Errorf("media: summaries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m Summary
		if err := rows.Scan(&m.ID, &m.Kind, &m.State, &m.ProgressPercent, &m.DurationSeconds, &m.Error); err != nil {
			return nil, fmt.Errorf("media: summaries: %w", err)
		}
		out[m.ID] = m
	}
	return out, rows.Err()
}

// validID reports whether id is a canonical uuid (anything else cannot be
// an asset and must not reach a uuid column).
func validID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range id {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}
