package engagement

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// Range is a span of a media item, in seconds: [Start, End). It is written
// in JSON as a two-number array.
type Range struct {
	Start float64
	End   float64
}

// MarshalJSON writes r as [start, end].
func (r Range) MarshalJSON() ([]byte, error) { return json.Marshal([2]float64{r.Start, r.End}) }

// UnmarshalJSON reads [start, end].
func (r *Range) UnmarshalJSON(b []byte) error {
	var a [2]float64
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	r.Start, r.End = a[0], a[1]
	return nil
}

// MergeRanges returns rs sorted, with overlapping and touching ranges joined
// and empty ones dropped. It does not modify rs.
func MergeRanges(rs []Range) []Range {
	out := make([]Range, 0, len(rs))
	for _, r := range rs {
		if r.End > r.Start {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r.Start <= merged[n-1].End {
			merged[n-1].End = math.Max(merged[n-1].End, r.End)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// Covered is the total length of merged ranges.
func Covered(merged []Range) float64 {
	var sum float64
	for _, r := range merged {
		sum += r.End - r.Start
	}
	return sum
}

// clip cuts rs to [0, limit].
func clip(rs []Range, limit float64) []Range {
	out := rs[:0:0]
	for _, r := range rs {
		r.Start = math.Max(r.Start, 0)
		if limit > 0 {
			r.End = math.Min(r.End, limit)
		}
		if r.End > r.Start {
			out = append(out, r)
		}
	}
	return out
}

// ProgressUpdate is one report from a player or reader.
type ProgressUpdate struct {
	// PositionSeconds is where the reader is now (where to resume).
	PositionSeconds float64 `json:"position_seconds"`
	// DurationSeconds is the media length; 0 for items without one.
	DurationSeconds float64 `json:"duration_seconds"`
	// Watched are the spans actually played since the last report. Jumping
	// ahead plays nothing, so seeking to the end does not complete an item.
	Watched []Range `json:"watched"`
	// Percent is the progress of an item without a duration (a text lesson
	// read to 60 %); ignored when DurationSeconds is set.
	Percent *float64 `json:"percent"`
}

// Progress is a reader's progress in one item.
type Progress struct {
	Percent         float64    `json:"percent"`
	PositionSeconds float64    `json:"position_seconds"`
	DurationSeconds float64    `json:"duration_seconds"`
	Watched         []Range    `json:"watched"`
	CompletedAt     *time.Time `json:"completed_at,omitempty"`
	UpdatedAt       time.Time  `json:"updated_at"`
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func (u ProgressUpdate) check() error {
	bad := func() error {
		return core.Invalid("Progresso inválido.", map[string]string{"progress": "Os dados de progresso enviados não são válidos."})
	}
	if !finite(u.PositionSeconds, u.DurationSeconds) || u.PositionSeconds < 0 || u.DurationSeconds < 0 {
		return bad()
	}
	for _, r := range u.Watched {
		if !finite(r.Start, r.End) || r.Start < 0 || r.End < r.Start {
			return bad()
		}
	}
	if u.Percent != nil && (!finite(*u.Percent) || *u.Percent < 0 || *u.Percent > 100) {
		return bad()
	}
	return nil
}

// apply folds u into p and reports whether the item is now complete. The
// percent never goes down; completion, once reached, stays.
func (p *Progress) apply(u ProgressUpdate, ratio float64) (complete bool) {
	if u.DurationSeconds > 0 {
		p.DurationSeconds = u.DurationSeconds
	}
	p.PositionSeconds = u.PositionSeconds
	if p.DurationSeconds > 0 {
		p.PositionSeconds = math.Min(p.PositionSeconds, p.DurationSeconds)
	}
	p.Watched = MergeRanges(clip(append(append([]Range(nil), p.Watched...), u.Watched...), p.DurationSeconds))
	var percent float64
	switch {
	case p.DurationSeconds > 0:
		covered := Covered(p.Watched)
		percent = covered / p.DurationSeconds * 100
		complete = covered >= ratio*p.DurationSeconds
	case u.Percent != nil:
		percent = *u.Percent
		complete = percent >= 100
	}
	percent = math.Min(100, math.Floor(percent*100)/100)
	p.Percent = math.Max(p.Percent, percent)
	return complete || p.CompletedAt != nil
}

// RecordProgress folds a player's or reader's report into user's progress
// in item and returns the result.
func (s *Service) RecordProgress(ctx context.Context, userID, itemID string, u ProgressUpdate) (Progress, error) {
	if err := u.check(); err != nil {
		return Progress{}, err
	}
	var p Progress
	err := s.begin(ctx, userID, itemID, func(tx pgx.Tx) error {
		var err error
		p, err = readProgress(ctx, tx, userID, itemID)
		if err != nil {
			return err
		}
		now := s.now()
		if p.apply(u, s.completeRatio) && p.CompletedAt == nil {
			p.CompletedAt = &now
		}
		p.UpdatedAt = now
		watched, err := json.Marshal(p.Watched)
		if err != nil {
			return fmt.Errorf("encode watched ranges: %w", err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO engagement_progress
				(item_id, user_id, percent, position_seconds, duration_seconds, watched, completed_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (item_id, user_id) DO UPDATE SET percent = EXCLUDED.percent,
				position_seconds = EXCLUDED.position_seconds, duration_seconds = EXCLUDED.duration_seconds,
				watched = EXCLUDED.watched, completed_at = EXCLUDED.completed_at, updated_at = EXCLUDED.updated_at`,
			itemID, userID, p.Percent, p.PositionSeconds, p.DurationSeconds, watched, p.CompletedAt, now)
		if err != nil {
			return fmt.Errorf("write progress: %w", err)
		}
		return nil
	})
	return p, err
}

type rowQueryer interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func readProgress(ctx context.Context, q rowQueryer, userID, itemID string) (Progress, error) {
	var p Progress
	var watched []byte
	err := q.QueryRow(ctx, `SELECT percent::float8, position_seconds, duration_seconds, watched, completed_at, updated_at
		FROM engagement_progress WHERE item_id = $1 AND user_id = $2`, itemID, userID).
		Scan(&p.Percent, &p.PositionSeconds, &p.DurationSeconds, &watched, &p.CompletedAt, &p.UpdatedAt)
	if postgres.IsNoRows(err) {
		return Progress{Watched: []Range{}}, nil
	}
	if err != nil {
		return Progress{}, fmt.Errorf("read progress: %w", err)
	}
	if err := json.Unmarshal(watched, &p.Watched); err != nil {
		return Progress{}, fmt.Errorf("decode watched ranges: %w", err)
	}
	return p, nil
}

// Progress returns user's progress in item (zero when none was recorded).
func (s *Service) Progress(ctx context.Context, userID, itemID string) (Progress, error) {
	if err := validIDs(userID, itemID); err != nil {
		return Progress{}, err
	}
	return readProgress(ctx, s.pool, userID, itemID)
}
