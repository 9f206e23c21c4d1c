package challenges

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/notifications"
)

// Ranking scopes.
const (
	ScopeAll         = "geral"
	ScopeConnections = "conexoes"
)

// RankingSize is how many members a ranking lists (the member asking is
// added below when further down).
const RankingSize = 20

// Entry is one member's line in a ranking.
type Entry struct {
	Position  int    `json:"position"`
	UserID    string `json:"user_id"`
	Name      string `json:"name"`
	AvatarURL string `json:"avatar_url"`
	Points    int    `json:"points"`
	Completed int    `json:"completed"`
	IsMe      bool   `json:"is_me"`
}

// Ranking is a week's ranking by challenge points.
type Ranking struct {
	Scope     string  `json:"scope"`
	WeekStart string  `json:"week_start"` // the Monday, São Paulo
	WeekEnd   string  `json:"week_end"`   // the Sunday
	Entries   []Entry `json:"entries"`
	Me        *Entry  `json:"me"`
}

// WeekStart is the Monday 00:00 (São Paulo) of the week holding t.
func (s *Service) WeekStart(t time.Time) time.Time {
	l := t.In(s.zone)
	d := (int(l.Weekday()) + 6) % 7 // days since Monday
	return time.Date(l.Year(), l.Month(), l.Day()-d, 0, 0, 0, 0, s.zone)
}

// Ranking ranks the members by the challenge points of the submissions of
// the week starting at week (the current week when zero): everyone
// (ScopeAll) or userID and their connections (ScopeConnections). Drafts
// closed at a challenge's end earn nothing and do not rank. Ties share a
// position.
func (s *Service) Ranking(ctx context.Context, userID, scope string, week time.Time) (Ranking, error) {
	if week.IsZero() {
		week = s.now()
	}
	start := s.WeekStart(week)
	end := start.AddDate(0, 0, 7)
	r := Ranking{Scope: scope, WeekStart: start.Format(time.DateOnly), WeekEnd: end.AddDate(0, 0, -1).Format(time.DateOnly), Entries: []Entry{}}
	who := ""
	switch scope {
	case ScopeAll:
	case ScopeConnections:
		me := "nullif($3::text, '')::uuid"
		who = ` AND (p.user_id = ` + me + ` OR p.user_id IN (` + connections.ConnectedIDsSQL(me) + `))`
	default:
		return r, core.Invalid(MsgBadScope, map[string]string{"escopo": MsgBadScope})
	}
	rows, err := s.pool.Query(ctx, `WITH totals AS (
			SELECT p.user_id, sum(p.points_awarded)::int AS pts, count(*)::int AS done
			FROM challenge_participations p
			WHERE p.status = 'submitted' AND p.submitted_at >= $1 AND p.submitted_at < $2`+who+`
			GROUP BY p.user_id),
		ranked AS (
			SELECT t.*, rank() OVER (ORDER BY t.pts DESC)::int AS pos,
				row_number() OVER (ORDER BY t.pts DESC, t.done DESC, t.user_id)::int AS n
			FROM totals t)
		SELECT r.pos, r.user_id::text, coalesce(trim(pr.first_name || ' ' || pr.last_name), ''), coalesce(pr.avatar_url, ''),
			r.pts, r.done, r.user_id = nullif($3::text, '')::uuid
		FROM ranked r LEFT JOIN profiles pr ON pr.user_id = r.user_id
		WHERE r.n <= $4 OR r.user_id = nullif($3::text, '')::uuid
		ORDER BY r.n`, start, end, userID, RankingSize)
	if err != nil {
		return r, fmt.Errorf("challenge ranking: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Entry, error) {
		var e Entry
		err := row.Scan(&e.Position, &e.UserID, &e.Name, &e.AvatarURL, &e.Points, &e.Completed, &e.IsMe)
		return e, err
	})
	if err != nil {
		return r, fmt.Errorf("challenge ranking: %w", err)
	}
	for i, e := range list {
		if e.Name == "" {
			list[i].Name = "Membro VetClube"
		}
		if e.IsMe {
			me := list[i]
			r.Me = &me
		}
		if i < RankingSize {
			r.Entries = append(r.Entries, list[i])
		}
	}
	return r, nil
}

// SnapshotWeek keeps the final ranking of the week starting at week (all
// members) and tells each ranked member their position (type challenge,
// once per member and week). It returns how many were ranked.
func (s *Service) SnapshotWeek(ctx context.Context, week time.Time) (int, error) {
	start := s.WeekStart(week)
	end := start.AddDate(0, 0, 7)
	tag, err := s.pool.Exec(ctx, `INSERT INTO challenge_week_rankings (week_start, user_id, points, position)
		SELECT $1::date, t.user_id, t.pts, rank() OVER (ORDER BY t.pts DESC)::int FROM (
			SELECT user_id, sum(points_awarded)::int AS pts FROM challenge_participations
			WHERE status = 'submitted' AND submitted_at >= $2 AND submitted_at < $3 GROUP BY user_id) t
		ON CONFLICT (week_start, user_id) DO NOTHING`, start.Format(time.DateOnly), start, end)
	if err != nil {
		return 0, fmt.Errorf("ranking snapshot: %w", err)
	}
	if s.notify == nil {
		return int(tag.RowsAffected()), nil
	}
	rows, err := s.pool.Query(ctx, `SELECT user_id::text, points, position FROM challenge_week_rankings WHERE week_start = $1`, start.Format(time.DateOnly))
	if err != nil {
		return 0, fmt.Errorf("ranking snapshot: %w", err)
	}
	type line struct {
		user     string
		pts, pos int
	}
	lines, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (line, error) {
		var l line
		err := r.Scan(&l.user, &l.pts, &l.pos)
		return l, err
	})
	if err != nil {
		return 0, fmt.Errorf("ranking snapshot: %w", err)
	}
	for _, l := range lines {
		_, err := s.notify.Send(ctx, notifications.Notice{UserID: l.user, Type: "challenge", Title: "Ranking semanal dos desafios",
			Message: fmt.Sprintf("A semana terminou: você ficou em %dº lugar com %d VetCoins em desafios.", l.pos, l.pts),
			Link:    "/desafios?aba=ranking", IdempotencyKey: "challenge-week:" + start.Format(time.DateOnly) + ":" + l.user})
		if err != nil {
			return 0, fmt.Errorf("ranking notice: %w", err)
		}
	}
	return len(lines), nil
}

// Badge is one streak badge and whether the member earned it.
type Badge struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Weeks       int        `json:"weeks"`
	Earned      bool       `json:"earned"`
	AwardedAt   *time.Time `json:"awarded_at"`
}

// Badges are earned by completing challenges in consecutive weeks (São
// Paulo's weeks, a week counting when at least one challenge was submitted
// in it): the first completed challenge, then streaks of 3, 5 and 10 weeks.
var Badges = []Badge{
	{ID: "primeiro_desafio", Name: "Primeiro desafio", Description: "Concluiu o primeiro desafio.", Weeks: 1},
	{ID: "sequencia_3", Name: "Em ritmo", Description: "Concluiu desafios 3 semanas seguidas.", Weeks: 3},
	{ID: "sequencia_5", Name: "Constância", Description: "Concluiu desafios 5 semanas seguidas.", Weeks: 5},
	{ID: "sequencia_10", Name: "Imparável", Description: "Concluiu desafios 10 semanas seguidas.", Weeks: 10},
}

// Badges answers the member's badges and current streak.
type BadgeBoard struct {
	Streak    int     `json:"streak"` // weeks in a row up to this one (or the last)
	Completed int     `json:"completed"`
	Badges    []Badge `json:"badges"`
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// streak counts the consecutive weeks ending at the week of now (or the
// week before, when this week has no submission yet) with a submission.
func (s *Service) streak(ctx context.Context, q querier, userID string, now time.Time) (streak, completed int, err error) {
	rows, err := q.Query(ctx, `SELECT submitted_at FROM challenge_participations WHERE user_id = $1 AND status = 'submitted' ORDER BY submitted_at DESC`, userID)
	if err != nil {
		return 0, 0, err
	}
	times, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		return 0, 0, err
	}
	weeks := map[string]bool{}
	for _, t := range times {
		weeks[s.WeekStart(t).Format(time.DateOnly)] = true
	}
	w := s.WeekStart(now)
	if !weeks[w.Format(time.DateOnly)] {
		w = w.AddDate(0, 0, -7)
	}
	for weeks[w.Format(time.DateOnly)] {
		streak++
		w = w.AddDate(0, 0, -7)
	}
	return streak, len(times), nil
}

// awardBadgesTx keeps every badge the member's streak reached (once).
func (s *Service) awardBadgesTx(ctx context.Context, tx pgx.Tx, userID string, now time.Time) error {
	streak, _, err := s.streak(ctx, tx, userID, now)
	if err != nil {
		return fmt.Errorf("challenge streak: %w", err)
	}
	for _, b := range Badges {
		if streak >= b.Weeks {
			if _, err := tx.Exec(ctx, `INSERT INTO challenge_badges (user_id, badge, awarded_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
				userID, b.ID, now); err != nil {
				return fmt.Errorf("award badge: %w", err)
			}
		}
	}
	return nil
}

// BadgesOf returns userID's badge board.
func (s *Service) BadgesOf(ctx context.Context, userID string) (BadgeBoard, error) {
	if userID == "" {
		return BadgeBoard{}, core.NotSignedIn()
	}
	var b BadgeBoard
	var err error
	if b.Streak, b.Completed, err = s.streak(ctx, s.pool, userID, s.now()); err != nil {
		return b, fmt.Errorf("challenge streak: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT badge, awarded_at FROM challenge_badges WHERE user_id = $1`, userID)
	if err != nil {
		return b, fmt.Errorf("badges: %w", err)
	}
	earned := map[string]time.Time{}
	for rows.Next() {
		var id string
		var at time.Time
		if err := rows.Scan(&id, &at); err != nil {
			rows.Close()
			return b, err
		}
		earned[id] = at
	}
	if err := rows.Err(); err != nil {
		return b, err
	}
	for _, def := range Badges {
		if at, ok := earned[def.ID]; ok {
			def.Earned, def.AwardedAt = true, &at
		}
		b.Badges = append(b.Badges, def)
	}
	return b, nil
}

// Announce tells the members whose profile lists challenge itemID's
// specialty that it started (type challenge, once per challenge); it
// returns how many notifications were stored. A challenge not published, or
// not started, is left alone.
func (s *Service) Announce(ctx context.Context, itemID string) (int, error) {
	var title, specialty, slug string
	var startsAt time.Time
	var published, announced bool
	err := s.pool.QueryRow(ctx, `SELECT title, specialty, slug, starts_at, published, announced_at IS NOT NULL FROM challenge_listings WHERE item_id = $1`,
		itemID).Scan(&title, &specialty, &slug, &startsAt, &published, &announced)
	if err != nil {
		return 0, fmt.Errorf("read challenge: %w", err)
	}
	if !published || announced || startsAt.After(s.now()) || s.notify == nil {
		return 0, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT user_id::text FROM profiles WHERE $1 = ANY(specialties)`, specialty)
	if err != nil {
		return 0, fmt.Errorf("challenge audience: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("challenge audience: %w", err)
	}
	stored := 0
	if len(ids) > 0 {
		b, err := s.notify.SendMany(ctx, notifications.Notice{Type: "challenge", Title: "Novo desafio na sua especialidade",
			Message: strings.TrimSpace(title), Link: "/desafios/" + slug, IdempotencyKey: "challenge-new:" + itemID}, ids)
		if err != nil {
			return 0, err
		}
		stored = b.Stored
	}
	if _, err := s.pool.Exec(ctx, `UPDATE challenge_listings SET announced_at = $2 WHERE item_id = $1`, itemID, s.now()); err != nil {
		return stored, err
	}
	return stored, nil
}

// RemindEnding tells each member with unsent answers to challenge itemID
// that it ends within EndingSoonLead (once per member); it returns how many
// were told. Nothing is sent for a challenge whose end is not that close
// any more (moved) or already past.
func (s *Service) RemindEnding(ctx context.Context, itemID string) (int, error) {
	var title, slug, kind string
	var endsAt time.Time
	var published bool
	err := s.pool.QueryRow(ctx, `SELECT title, slug, kind, ends_at, published FROM challenge_listings WHERE item_id = $1`, itemID).
		Scan(&title, &slug, &kind, &endsAt, &published)
	if err != nil {
		return 0, fmt.Errorf("read challenge: %w", err)
	}
	now := s.now()
	if !published || s.notify == nil || !endsAt.After(now) || endsAt.Sub(now) > EndingSoonLead+time.Minute {
		return 0, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT user_id::text FROM challenge_participations WHERE challenge_id = $1 AND status = 'in_progress' AND reminded_at IS NULL`, itemID)
	if err != nil {
		return 0, fmt.Errorf("challenge drafts: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("challenge drafts: %w", err)
	}
	msg := "Envie suas respostas de \"" + title + "\" antes do encerramento."
	switch kind {
	case KindStudy:
		msg = "Conclua as aulas que faltam em \"" + title + "\" antes do encerramento."
	case KindCommunity:
		msg = "Ajude mais colegas na comunidade para completar \"" + title + "\" antes do encerramento."
	}
	for _, id := range ids {
		if _, err := s.notify.Send(ctx, notifications.Notice{UserID: id, Type: "challenge", Title: "Desafio termina em 24 horas",
			Message: msg, Link: "/desafios/" + slug,
			IdempotencyKey: "challenge-ending:" + itemID + ":" + id}); err != nil {
			return 0, err
		}
		if _, err := s.pool.Exec(ctx, `UPDATE challenge_participations SET reminded_at = $3 WHERE challenge_id = $1 AND user_id = $2`, itemID, id, now); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}
