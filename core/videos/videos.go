// Package videos is the core side of the exclusive videos content plugin
// (plugins/videos): the list at /conteudos-exclusivos for a signed-in
// reader (filters, Portuguese search, paging 8 then 4), the reader's
// statistics, the player's detail with the resume position, likes,
// favorites, views, progress with automatic completion, mark/unmark
// completed, and the home card's newest video.
//
// Videos and categories are content items; their published snapshots are
// typed into video_* tables by a trigger in the publishing transaction
// (migrations/00120_videos.sql). Likes, favorites, views (once per reader
// per 24 h) and watched ranges reuse core/engagement; completion is this
// package's (it can be unmarked, which engagement's cannot).
package videos

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/subscriptions"

	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

// Content type ids (plugins/videos).
const (
	TypeVideo    = "videos"
	TypeCategory = "videos-categorias"
)

// Paging: the first page holds 8 videos, every later page 4.
const (
	FirstPageSize = 8
	NextPageSize  = 4
	PreviewChars  = 100
)

// Resume rule: a player starts from 0 when the saved position is before
// ResumeMin or after ResumeMax of the video.
const (
	ResumeMin = 0.05
	ResumeMax = 0.90
)

// Messages users read (pt-BR).
const (
	MsgNotFound       = "Vídeo não encontrado."
	MsgPremium        = "Este vídeo é exclusivo para assinantes Premium. Assine para continuar."
	MsgFavoriteOn     = "Vídeo adicionado aos favoritos"
	MsgFavoriteOff    = "Vídeo removido dos favoritos"
	MsgCompletedOn    = "Vídeo marcado como concluído"
	MsgCompletedOff   = "Vídeo desmarcado como concluído"
	MsgBadPage        = "Página inválida."
	MsgBadID          = "Identificador inválido."
	MsgBadFlag        = "Use true ou false."
	MsgSearchTooLong  = "A busca deve ter no máximo 200 caracteres."
	MsgBadFilters     = "Filtros inválidos."
	MsgCompletedField = "Informe completed como true ou false."
)

// AccessPremium is error.fields.access when a reader without premium or an
// active trial opens a video (the web shows the Premium invitation).
const AccessPremium = "premium_required"

func refusePremium() error {
	return &core.Error{Code: core.EFORBIDDEN, Message: MsgPremium, Fields: map[string]string{"access": AccessPremium}}
}

func notFound() error { return core.Errorf(core.ENOTFOUND, MsgNotFound) }

// Subscriptions is what videos need of core/subscriptions.
type Subscriptions interface {
	View(ctx context.Context, userID string) (subscriptions.View, error)
}

// Service serves exclusive videos.
type Service struct {
	pool *pgxpool.Pool
	eng  *engagement.Service
	subs Subscriptions
	now  func() time.Time
	log  *slog.Logger
	// streamURL signs an uploaded video's stream for a reader with access.
	streamURL courses.StreamURL
}

// Options configures a Service: the base it shares with the courses, and
// the subscriptions that decide access.
type Options struct {
	courses.Base
	Subscriptions Subscriptions
}

// New returns a service on pool.
func New(pool *pgxpool.Pool, o Options) *Service {
	b := o.WithDefaults()
	return &Service{pool: pool, eng: b.Engagement, subs: o.Subscriptions, now: b.Now, log: b.Log, streamURL: b.StreamURL}
}

// HasAccess says whether userID may watch exclusive videos: premium or an
// active trial (the same rule as course lessons).
func (s *Service) HasAccess(ctx context.Context, userID string) (bool, error) {
	v, err := s.subs.View(ctx, userID)
	if err != nil {
		return false, wrap("subscription", err)
	}
	return v.IsPremium || v.TrialActive, nil
}

// Category is a video category.
type Category struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Card is a video in the list, with the reader's state.
type Card struct {
	ID              string     `json:"id"`
	Slug            string     `json:"slug"`
	Title           string     `json:"title"`
	Description     string     `json:"description"`
	Thumbnail       *string    `json:"thumbnail"`
	Category        *Category  `json:"category"`
	Duration        string     `json:"duration"`
	DurationSeconds int        `json:"duration_seconds"`
	Difficulty      string     `json:"difficulty"`
	Instructor      string     `json:"instructor"`
	Tags            []string   `json:"tags"`
	VideoSource     string     `json:"video_source"`
	Views           int64      `json:"views"`
	Likes           int64      `json:"likes"`
	PublishedAt     time.Time  `json:"published_at"`
	IsFavorite      bool       `json:"is_favorite"`
	UserLiked       bool       `json:"user_liked"`
	IsCompleted     bool       `json:"is_completed"`
	CompletedAt     *time.Time `json:"completed_at"`
	Progress        int        `json:"progress"`
	Locked          bool       `json:"locked"`
}

// imageURL turns an image field's storage key into its public address; a
// YouTube video without a thumbnail shows YouTube's own.
func imageURL(key, youtubeURL string) *string {
	if key == "" {
		if id := videourl.YouTubeID(youtubeURL); id != "" {
			u := "https://i.ytimg.com/vi/" + id + "/hqdefault.jpg"
			return &u
		}
		return nil
	}
	return courses.UploadURL(key)
}

func validUUID(s string) bool { return len(s) == 36 && uuid.Validate(s) == nil }

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("videos: %s: %w", what, err)
}
