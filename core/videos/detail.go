package videos

import (
	"context"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/postgres"
)

// video is a published video's row as the write paths need it.
type video struct {
	id       string
	duration int
}

// resolve finds a published video by id or slug.
func (s *Service) resolve(ctx context.Context, idOrSlug string) (video, error) {
	var v video
	var err error
	// An uploaded video the editor gave no duration has its asset's.
	const sel = `SELECT v.item_id::text,
			CASE WHEN v.duration_seconds > 0 OR m.id IS NULL THEN v.duration_seconds ELSE round(m.duration_seconds)::int END
		FROM video_listings v LEFT JOIN media_public m ON m.id = v.video_asset AND v.video_source = 'upload'`
	if validUUID(idOrSlug) {
		err = s.pool.QueryRow(ctx, sel+` WHERE v.item_id = $1::uuid AND v.published`, idOrSlug).Scan(&v.id, &v.duration)
	} else {
		err = s.pool.QueryRow(ctx, sel+` WHERE v.slug = $1 AND v.published
			ORDER BY v.published_at DESC LIMIT 1`, idOrSlug).Scan(&v.id, &v.duration)
	}
	if postgres.IsNoRows(err) {
		return v, notFound()
	}
	return v, wrap("resolve", err)
}

// resolveWithAccess resolves a video a reader wants to watch or engage
// with: unknown → 404, no premium or trial → 403 premium_required.
func (s *Service) resolveWithAccess(ctx context.Context, idOrSlug, userID string) (video, error) {
	v, err := s.resolve(ctx, idOrSlug)
	if err != nil {
		return v, err
	}
	ok, err := s.HasAccess(ctx, userID)
	if err != nil {
		return v, err
	}
	if !ok {
		return v, refusePremium()
	}
	return v, nil
}

// ResumeAt is where a player starts: 0 when the saved position is before
// 5 % or after 90 % of the video, else the saved position. Without
// a known duration the position is kept.
func ResumeAt(position, duration float64) float64 {
	if duration <= 0 {
		return position
	}
	r := position / duration
	if r < ResumeMin || r > ResumeMax {
		return 0
	}
	return position
}

// Detail is the player's view of one video.
type Detail struct {
	Card
	Description     string             `json:"description"`
	Video           *Player            `json:"video"`
	PositionSeconds float64            `json:"position_seconds"`
	Watched         []engagement.Range `json:"watched"`
	ResumeAt        float64            `json:"resume_at"`
	LastWatchedAt   *time.Time         `json:"last_watched_at"`
}

// Detail is video idOrSlug for userID (403 without access).
func (s *Service) Detail(ctx context.Context, idOrSlug, userID string) (Detail, error) {
	v, err := s.resolveWithAccess(ctx, idOrSlug, userID)
	if err != nil {
		return Detail{}, err
	}
	var d Detail
	var f courses.VideoFields
	d.Card, err = scanCard(s.pool.QueryRow(ctx, `SELECT `+cardColumns+`, v.description, v.video_source, v.youtube_url,
			v.vimeo_url, v.stream_url, coalesce(m.state, ''), coalesce(m.stream_key, ''), coalesce(m.poster_url, ''),
			coalesce(m.duration_seconds, 0) `+cardFrom+` WHERE v.item_id = $2::uuid`, userID, v.id),
		&d.Description, &f.Source, &f.YouTube, &f.Vimeo, &f.Stream, &f.Upload.State, &f.Upload.StreamKey, &f.Upload.PosterURL,
		&f.Upload.Duration)
	if postgres.IsNoRows(err) {
		return Detail{}, notFound()
	}
	if err != nil {
		return Detail{}, wrap("detail", err)
	}
	d.Video = courses.PlayerVideo(f, func(key string, seconds float64) string {
		if s.streamURL == nil {
			return ""
		}
		return s.streamURL(key, userID, seconds)
	})
	p, err := s.eng.Progress(ctx, userID, v.id)
	if err != nil {
		return Detail{}, wrap("progress", err)
	}
	d.PositionSeconds, d.Watched = p.PositionSeconds, p.Watched
	d.ResumeAt = ResumeAt(p.PositionSeconds, duration(p, v))
	if !p.UpdatedAt.IsZero() {
		d.LastWatchedAt = &p.UpdatedAt
	}
	return d, nil
}

// duration is the video's length: the player's report, else the editor's.
func duration(p engagement.Progress, v video) float64 {
	if p.DurationSeconds > 0 {
		return p.DurationSeconds
	}
	return float64(v.duration)
}

// ProgressAnswer is the answer to a player's progress report.
type ProgressAnswer struct {
	VideoID         string             `json:"video_id"`
	PositionSeconds float64            `json:"position_seconds"`
	Watched         []engagement.Range `json:"watched"`
	Progress        int                `json:"progress"`
	IsCompleted     bool               `json:"is_completed"`
	CompletedAt     *time.Time         `json:"completed_at"`
	JustCompleted   bool               `json:"just_completed"`
	ResumeAt        float64            `json:"resume_at"`
}

// RecordProgress folds a player's report into the reader's progress
// (core/engagement merges the watched ranges). The first time at least 90 %
// of the seconds were actually watched the video completes; a reader who
// unmarked it afterwards is not completed again by later reports, because
// engagement's completion happens once.
func (s *Service) RecordProgress(ctx context.Context, idOrSlug, userID string, u engagement.ProgressUpdate) (ProgressAnswer, error) {
	v, err := s.resolveWithAccess(ctx, idOrSlug, userID)
	if err != nil {
		return ProgressAnswer{}, err
	}
	if u.DurationSeconds == 0 && v.duration > 0 {
		u.DurationSeconds = float64(v.duration)
	}
	u.Percent = nil // a video's percent is its watched seconds, never a claim
	before, err := s.eng.Progress(ctx, userID, v.id)
	if err != nil {
		return ProgressAnswer{}, wrap("progress", err)
	}
	p, err := s.eng.RecordProgress(ctx, userID, v.id, u)
	if err != nil {
		return ProgressAnswer{}, err
	}
	a := ProgressAnswer{VideoID: v.id, PositionSeconds: p.PositionSeconds, Watched: p.Watched,
		Progress: int(math.Min(100, math.Floor(p.Percent))), ResumeAt: ResumeAt(p.PositionSeconds, duration(p, v))}
	if before.CompletedAt == nil && p.CompletedAt != nil {
		// Two reports crossing 90 % at once both see "not completed
		// before"; the primary key lets only one of them complete it.
		tag, err := s.pool.Exec(ctx, `INSERT INTO video_completions (user_id, video_id, how, completed_at)
			VALUES ($1, $2, 'watched', $3) ON CONFLICT DO NOTHING`, userID, v.id, *p.CompletedAt)
		if err != nil {
			return a, wrap("complete", err)
		}
		a.JustCompleted = tag.RowsAffected() == 1
	}
	err = s.pool.QueryRow(ctx, `SELECT completed_at FROM video_completions WHERE user_id = $1 AND video_id = $2`,
		userID, v.id).Scan(&a.CompletedAt)
	if err != nil && !postgres.IsNoRows(err) {
		return a, wrap("completion", err)
	}
	a.IsCompleted = a.CompletedAt != nil
	return a, nil
}

// ViewAnswer says whether a view was counted and the total.
type ViewAnswer struct {
	Counted bool  `json:"counted"`
	Views   int64 `json:"views"`
}

// RecordView counts the reader's view (engagement: once per reader per
// video per 24 h). The web calls it after 30 s of playback.
func (s *Service) RecordView(ctx context.Context, idOrSlug, userID string) (ViewAnswer, error) {
	v, err := s.resolveWithAccess(ctx, idOrSlug, userID)
	if err != nil {
		return ViewAnswer{}, err
	}
	counted, err := s.eng.RecordView(ctx, userID, v.id)
	if err != nil {
		return ViewAnswer{}, err
	}
	c, err := s.eng.Counters(ctx, v.id)
	if err != nil {
		return ViewAnswer{}, err
	}
	return ViewAnswer{Counted: counted, Views: c.Views}, nil
}

// LikeAnswer is the reader's like and the total.
type LikeAnswer struct {
	UserLiked bool  `json:"user_liked"`
	Likes     int64 `json:"likes"`
}

// ToggleLike likes or unlikes (engagement reactions: the count moves with
// the reader's own row, so it never goes below 0).
func (s *Service) ToggleLike(ctx context.Context, idOrSlug, userID string) (LikeAnswer, error) {
	v, err := s.resolveWithAccess(ctx, idOrSlug, userID)
	if err != nil {
		return LikeAnswer{}, err
	}
	now, err := s.eng.ToggleReaction(ctx, userID, v.id, engagement.ReactionLike)
	if err != nil {
		return LikeAnswer{}, err
	}
	c, err := s.eng.Counters(ctx, v.id)
	if err != nil {
		return LikeAnswer{}, err
	}
	return LikeAnswer{UserLiked: now == engagement.ReactionLike, Likes: c.Likes}, nil
}

// FavoriteAnswer is the reader's favorite state.
type FavoriteAnswer struct {
	IsFavorite bool   `json:"is_favorite"`
	Message    string `json:"message"`
}

// ToggleFavorite flips the reader's favorite. Anyone signed in may keep a
// wishlist, so it needs no premium.
func (s *Service) ToggleFavorite(ctx context.Context, idOrSlug, userID string) (FavoriteAnswer, error) {
	v, err := s.resolve(ctx, idOrSlug)
	if err != nil {
		return FavoriteAnswer{}, err
	}
	on, err := s.eng.ToggleFavorite(ctx, userID, v.id)
	if err != nil {
		return FavoriteAnswer{}, err
	}
	msg := MsgFavoriteOff
	if on {
		msg = MsgFavoriteOn
	}
	return FavoriteAnswer{IsFavorite: on, Message: msg}, nil
}

// CompleteAnswer is the reader's completion state.
type CompleteAnswer struct {
	IsCompleted bool       `json:"is_completed"`
	CompletedAt *time.Time `json:"completed_at"`
	Message     string     `json:"message"`
}

// SetCompleted marks (sets completed_at) or unmarks (clears it) the video
// for the reader. Idempotent: marking twice keeps the first time.
func (s *Service) SetCompleted(ctx context.Context, idOrSlug, userID string, completed bool) (CompleteAnswer, error) {
	v, err := s.resolveWithAccess(ctx, idOrSlug, userID)
	if err != nil {
		return CompleteAnswer{}, err
	}
	if !completed {
		if _, err := s.pool.Exec(ctx, `DELETE FROM video_completions WHERE user_id = $1 AND video_id = $2`, userID, v.id); err != nil {
			return CompleteAnswer{}, wrap("unmark", err)
		}
		return CompleteAnswer{Message: MsgCompletedOff}, nil
	}
	// One statement: insert or, when already there, read the first time.
	var at time.Time
	err = s.pool.QueryRow(ctx, `WITH ins AS (
			INSERT INTO video_completions (user_id, video_id, how, completed_at) VALUES ($1, $2, 'marked', $3)
			ON CONFLICT DO NOTHING RETURNING completed_at)
		SELECT completed_at FROM ins
		UNION ALL SELECT completed_at FROM video_completions WHERE user_id = $1 AND video_id = $2
		LIMIT 1`, userID, v.id, s.now()).Scan(&at)
	if err == pgx.ErrNoRows {
		// the row was deleted between the conflict and the read: retry once
		return s.SetCompleted(ctx, idOrSlug, userID, true)
	}
	if err != nil {
		return CompleteAnswer{}, wrap("mark", err)
	}
	return CompleteAnswer{IsCompleted: true, CompletedAt: &at, Message: MsgCompletedOn}, nil
}

// Engageable resolves video idOrSlug for someone who wants to read or add
// its comments, react or favourite it through the generic content routes:
// the rule of the player (404 unknown, 403 without premium or trial, so a
// visitor is refused too). It answers the item id.
func (s *Service) Engageable(ctx context.Context, idOrSlug, userID string) (string, error) {
	if userID == "" {
		if _, err := s.resolve(ctx, idOrSlug); err != nil {
			return "", err
		}
		return "", refusePremium()
	}
	v, err := s.resolveWithAccess(ctx, idOrSlug, userID)
	return v.id, err
}
