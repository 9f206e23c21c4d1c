// Package courses is the core side of the courses content plugin
// (plugins/cursos): the catalogue for a signed-in learner, the course page
// with its curriculum, enrolment with VetCoins, lesson progress and the
// course progress rule, completion with VetCoins, a notification and a
// certificate, the learner's statistics, the home "last course" card, the
// publish gate of a course and the backoffice statistics per course.
//
// Courses, modules, lessons, categories and instructors are content items;
// their published snapshots are typed into course_* tables by a trigger in
// the publishing transaction (migrations/00110_courses.sql), so every read
// here is plain SQL on columns. Favorites and lesson positions/watched
// ranges reuse core/engagement; enrolments, lesson completions and
// certificates are this package's (enrolment is gated by the subscription
// and pays VetCoins, which engagement's generic enrolment does not).
package courses

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// Content type ids (plugins/cursos).
const (
	TypeCourse     = "cursos"
	TypeModule     = "cursos-modulos"
	TypeLesson     = "cursos-aulas"
	TypeCategory   = "cursos-categorias"
	TypeInstructor = "cursos-instrutores"
)

// Business constants.
const (
	PageSize          = 20
	PreviewChars      = 100
	EnrolPoints       = 50
	CompletePoints    = 200
	LimitType         = "courses" // the subscription's trial limit for enrolments
	NotificationType  = "course"
	certificatePrefix = "/certificados/"
)

// Messages users read (pt-BR).
const (
	MsgCourseNotFound  = "Curso não encontrado."
	MsgLessonNotFound  = "Aula não encontrada."
	MsgWatchFirst      = "Assista ao vídeo da aula para concluí-la."
	MsgCertNotFound    = "Certificado não encontrado."
	MsgEnrolled        = "Matrícula realizada com sucesso!"
	MsgAlreadyEnrolled = "Você já está matriculado neste curso."
	MsgFavoriteOn      = "Curso adicionado aos favoritos"
	MsgFavoriteOff     = "Curso removido dos favoritos"
	MsgNotEnrolled     = "Matricule-se no curso para assistir a esta aula."
	MsgPremium         = "Esta aula é exclusiva para assinantes Premium. Assine para continuar."
	MsgTrialLimit      = "Você atingiu o limite de cursos do seu plano. Assine o Premium para se matricular em mais cursos."
	MsgBadSort         = "Ordenação inválida."
	MsgBadStatus       = "Filtro de situação inválido."
	MsgBadPage         = "Página inválida."
	MsgBadID           = "Identificador inválido."
	MsgSearchTooLong   = "A busca deve ter no máximo 200 caracteres."
	MsgCompletedTitle  = "Curso concluído! 🎓"
	MsgCompletedText   = "Parabéns! Você concluiu o curso %s e ganhou %d VetCoins. Seu certificado está disponível."
	MsgCompletedNoCert = "Parabéns! Você concluiu o curso %s e ganhou %d VetCoins."
)

// Access refusal kinds (error.fields.access), for the web to pick the
// invitation it shows.
const (
	AccessNotEnrolled = "not_enrolled"
	AccessPremium     = "premium_required"
	AccessTrialLimit  = "trial_limit"
)

func refuse(kind, msg string) error {
	return &core.Error{Code: core.EFORBIDDEN, Message: msg, Fields: map[string]string{"access": kind}}
}

// Subscriptions is what courses need of core/subscriptions.
type Subscriptions interface {
	View(ctx context.Context, userID string) (subscriptions.View, error)
	RecordUsageTx(ctx context.Context, q subscriptions.RowQuerier, userID, limitType string) (subscriptions.LimitCheck, error)
}

// Profiles names learners on certificates.
type Profiles interface {
	Get(ctx context.Context, userID string) (profiles.Profile, error)
}

// Service serves courses.
type Service struct {
	pool     *pgxpool.Pool
	eng      *engagement.Service
	subs     Subscriptions
	notify   notifications.Sender
	profiles Profiles
	now      func() time.Time
	log      *slog.Logger
	// streamURL signs protected media (uploaded videos, material files)
	// for a reader who may open the lesson.
	streamURL StreamURL
}

// StreamURL signs the address of a protected media file (a stream's master
// playlist or a document, by its key in the private store) for memberID;
// core/media's Streams.MediaURL.
type StreamURL func(key, memberID string, mediaSeconds float64) string

// Base is what the services of the video content (courses here, exclusive
// videos in core/videos) are built on alike.
type Base struct {
	// Engagement keeps favorites, likes, views and watched positions.
	Engagement *engagement.Service
	Now        func() time.Time // nil: time.Now
	Log        *slog.Logger     // nil: discarded
	// StreamURL signs uploaded videos and material files (nil: an uploaded
	// video has no player and a lesson shows no material file).
	StreamURL StreamURL
}

// WithDefaults is b with its unset clock and log filled in.
func (b Base) WithDefaults() Base {
	if b.Now == nil {
		b.Now = time.Now
	}
	if b.Log == nil {
		b.Log = slog.New(slog.DiscardHandler)
	}
	return b
}

// Options configures a Service.
type Options struct {
	Base
	Subscriptions Subscriptions
	Notify        notifications.Sender // nil: no notification on completion
	Profiles      Profiles
}

// New returns a service on pool.
func New(pool *pgxpool.Pool, o Options) *Service {
	b := o.WithDefaults()
	return &Service{pool: pool, eng: b.Engagement, subs: o.Subscriptions, notify: o.Notify, profiles: o.Profiles,
		now: b.Now, log: b.Log, streamURL: b.StreamURL}
}

// Category is a course category.
type Category struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Instructor is a course's instructor.
type Instructor struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Avatar *string `json:"avatar"`
	Title  *string `json:"title"`
}

// Card is a course in the catalogue, with the reader's state.
type Card struct {
	ID            string      `json:"id"`
	Slug          string      `json:"slug"`
	Title         string      `json:"title"`
	Description   string      `json:"description"`
	Thumbnail     *string     `json:"thumbnail"`
	Category      *Category   `json:"category"`
	Instructor    *Instructor `json:"instructor"`
	Level         string      `json:"level"`
	Duration      string      `json:"duration"`
	DurationMin   int         `json:"duration_minutes"`
	Price         *float64    `json:"price"`
	OriginalPrice *float64    `json:"original_price"`
	Rating        float64     `json:"rating"`
	TotalRatings  int         `json:"total_ratings"`
	Students      int         `json:"students"`
	Tags          []string    `json:"tags"`
	PublishedAt   time.Time   `json:"published_at"`
	IsEnrolled    bool        `json:"is_enrolled"`
	Progress      int         `json:"progress"`
	IsCompleted   bool        `json:"is_completed"`
	IsFavorite    bool        `json:"is_favorite"`
}

// sign is the signed address of protected media key for memberID, or "".
func (s *Service) sign(key, memberID string, mediaSeconds float64) string {
	if s.streamURL == nil || key == "" {
		return ""
	}
	return s.streamURL(key, memberID, mediaSeconds)
}

// materialFile matches the address the read model gives a lesson's material
// file (a media library document): it is served only through a signed
// address.
var materialFile = regexp.MustCompile(`^/uploads/(media/[0-9a-f-]{36}/original\.(pdf|docx|xlsx|pptx))$`)

// UploadURL turns an image field's storage key into its public address (an
// address given whole stays as it is; nil when there is none).
func UploadURL(key string) *string {
	if key == "" {
		return nil
	}
	if strings.HasPrefix(key, "http://") || strings.HasPrefix(key, "https://") || strings.HasPrefix(key, "/") {
		return &key
	}
	u := "/uploads/" + key
	return &u
}

// Preview is the catalogue's description: Markdown reduced to plain text and
// cut at PreviewChars characters ('…' added when cut).
func Preview(markdown string) string {
	s := plainText(markdown)
	if utf8.RuneCountInString(s) <= PreviewChars {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:PreviewChars]), " ") + "…"
}

// plainText drops the Markdown marks a preview must not show: headings,
// emphasis, quotes, list bullets, link targets and images.
func plainText(md string) string {
	var b strings.Builder
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "#>")
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") || strings.HasPrefix(line, "+ ") {
			line = line[2:]
		}
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
	s := b.String()
	// [text](url) and ![alt](url) → text / alt
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '!' && i+1 < len(s) && s[i+1] == '[' {
			continue
		}
		if c == '[' {
			if end := strings.Index(s[i:], "]("); end > 0 {
				if close := strings.IndexByte(s[i+end:], ')'); close > 0 {
					out.WriteString(s[i+1 : i+end])
					i += end + close
					continue
				}
			}
		}
		if c == '*' || c == '_' || c == '`' {
			continue
		}
		out.WriteByte(c)
	}
	return strings.Join(strings.Fields(out.String()), " ")
}

// lines splits a one-item-per-line field into its items.
func lines(s string) []string {
	out := []string{}
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-*•"))
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func validUUID(s string) bool { return uuid.Validate(s) == nil && len(s) == 36 }

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("courses: %s: %w", what, err)
}
