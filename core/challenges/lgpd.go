package challenges

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// ExportedParticipation is one participation in the member's data export.
type ExportedParticipation struct {
	ChallengeID   string            `json:"challenge_id"`
	Challenge     string            `json:"challenge"`
	Status        string            `json:"status"`
	Answers       map[string]string `json:"answers"`
	Correct       int               `json:"correct"`
	Total         int               `json:"total"`
	PointsAwarded int               `json:"points_awarded"`
	StartedAt     time.Time         `json:"started_at"`
	SubmittedAt   *time.Time        `json:"submitted_at"`
}

// Export is the member's challenge data (LGPD).
type Export struct {
	Participations []ExportedParticipation `json:"participations"`
	Badges         []Badge                 `json:"badges"`
	WeekRankings   []map[string]any        `json:"week_rankings"`
}

// ExportUserData returns everything the challenges keep about userID.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	out := Export{Participations: []ExportedParticipation{}, Badges: []Badge{}, WeekRankings: []map[string]any{}}
	rows, err := s.pool.Query(ctx, `SELECT p.challenge_id::text, l.title, p.status, p.answers, p.correct, p.total, p.points_awarded, p.started_at, p.submitted_at
		FROM challenge_participations p JOIN challenge_listings l ON l.item_id = p.challenge_id WHERE p.user_id = $1 ORDER BY p.started_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("export challenges: %w", err)
	}
	out.Participations, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ExportedParticipation, error) {
		var e ExportedParticipation
		err := r.Scan(&e.ChallengeID, &e.Challenge, &e.Status, &e.Answers, &e.Correct, &e.Total, &e.PointsAwarded, &e.StartedAt, &e.SubmittedAt)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("export challenges: %w", err)
	}
	board, err := s.BadgesOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	for _, b := range board.Badges {
		if b.Earned {
			out.Badges = append(out.Badges, b)
		}
	}
	rows, err = s.pool.Query(ctx, `SELECT to_char(week_start, 'YYYY-MM-DD'), points, position FROM challenge_week_rankings WHERE user_id = $1 ORDER BY week_start`, userID)
	if err != nil {
		return nil, fmt.Errorf("export challenge rankings: %w", err)
	}
	out.WeekRankings, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (map[string]any, error) {
		var week string
		var pts, pos int
		err := r.Scan(&week, &pts, &pos)
		return map[string]any{"week_start": week, "points": pts, "position": pos}, err
	})
	if err != nil {
		return nil, fmt.Errorf("export challenge rankings: %w", err)
	}
	return out, nil
}

// EraseUserData deletes userID's participations, badges and ranking lines
// (the VetCoins ledger is erased by core/points); it returns the rows
// removed.
func (s *Service) EraseUserData(ctx context.Context, userID string) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, sql := range []string{
			`DELETE FROM challenge_participations WHERE user_id = $1`,
			`DELETE FROM challenge_badges WHERE user_id = $1`,
			`DELETE FROM challenge_week_rankings WHERE user_id = $1`,
		} {
			tag, err := tx.Exec(ctx, sql, userID)
			if err != nil {
				return err
			}
			n += tag.RowsAffected()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("erase challenges: %w", err)
	}
	return n, nil
}
