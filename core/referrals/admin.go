package referrals

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// AdminRow is a referral in the backoffice list.
type AdminRow struct {
	ID            string     `json:"id"`
	ReferrerID    string     `json:"referrer_id"`
	ReferrerEmail string     `json:"referrer_email"`
	RefereeID     string     `json:"referee_id"`
	RefereeEmail  string     `json:"referee_email"`
	Code          string     `json:"code"`
	State         string     `json:"state"`
	StateText     string     `json:"state_text"`
	Verdict       Verdict    `json:"verdict"`
	Reasons       []string   `json:"reasons"`
	ReasonsText   string     `json:"reasons_text"`
	SignupIP      string     `json:"signup_ip"`
	DeviceID      string     `json:"device_id"`
	CreatedAt     time.Time  `json:"created_at"`
	PaidAt        *time.Time `json:"paid_at"`
	HoldUntil     *time.Time `json:"hold_until"`
	RewardedAt    *time.Time `json:"rewarded_at"`
	ReviewNote    string     `json:"review_note"`
}

// AdminFilter narrows the backoffice list.
type AdminFilter struct {
	Verdict string `json:"verdict"`
	State   string `json:"state"`
}

const adminSelect = `SELECT r.id, r.referrer_id, a.email, r.referee_id, b.email, r.code, r.state, r.verdict, r.reasons,
	coalesce(r.signup_ip, ''), coalesce(r.device_id, ''), r.created_at, r.paid_at, r.hold_until, r.rewarded_at, coalesce(r.review_note, '')
	FROM referrals r JOIN users a ON a.id = r.referrer_id JOIN users b ON b.id = r.referee_id`

func scanAdmin(row pgx.CollectableRow) (AdminRow, error) {
	var x AdminRow
	err := row.Scan(&x.ID, &x.ReferrerID, &x.ReferrerEmail, &x.RefereeID, &x.RefereeEmail, &x.Code, &x.State, &x.Verdict,
		&x.Reasons, &x.SignupIP, &x.DeviceID, &x.CreatedAt, &x.PaidAt, &x.HoldUntil, &x.RewardedAt, &x.ReviewNote)
	x.StateText, x.ReasonsText = StateText(x.State), ReasonsText(x.Reasons)
	return x, err
}

// AdminList lists referrals, newest first (the review queue is verdict=flagged).
func (s *Service) AdminList(ctx context.Context, f AdminFilter, offset, limit int) ([]AdminRow, int, error) {
	if f.Verdict != "" && f.Verdict != string(Approved) && f.Verdict != string(Flagged) && f.Verdict != string(Rejected) {
		return nil, 0, core.Invalid("Filtro inválido.", map[string]string{"verdict": "Use approved, flagged ou rejected."})
	}
	if f.State != "" && stateText[f.State] == "" {
		return nil, 0, core.Invalid("Filtro inválido.", map[string]string{"state": "Estado desconhecido."})
	}
	where := ` WHERE ($1 = '' OR r.verdict = $1) AND ($2 = '' OR r.state = $2)`
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM referrals r`+where, f.Verdict, f.State).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.pool.Query(ctx, adminSelect+where+` ORDER BY r.created_at DESC, r.id LIMIT $3 OFFSET $4`, f.Verdict, f.State, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("admin referrals: %w", err)
	}
	list, err := pgx.CollectRows(rows, scanAdmin)
	if list == nil {
		list = []AdminRow{}
	}
	return list, total, err
}

// Event is one line of a referral's timeline.
type Event struct {
	At      time.Time       `json:"at"`
	Type    string          `json:"type"`
	ActorID *string         `json:"actor_id"`
	Detail  json.RawMessage `json:"detail"`
}

// AdminDetail is a referral with its evidence and timeline.
type AdminDetail struct {
	AdminRow
	Evidence json.RawMessage `json:"evidence"`
	Timeline []Event         `json:"timeline"`
	// Matches are the other accounts sharing the referee's device or IP.
	SameDevice []string `json:"same_device_accounts"`
	SameIP     []string `json:"same_ip_referrals"`
}

// AdminGet is one referral for the staff.
func (s *Service) AdminGet(ctx context.Context, id string) (AdminDetail, error) {
	var d AdminDetail
	if !validUUID(id) {
		return d, core.Errorf(core.ENOTFOUND, "Indicação não encontrada.")
	}
	rows, err := s.pool.Query(ctx, adminSelect+` WHERE r.id = $1`, id)
	if err != nil {
		return d, err
	}
	row, err := pgx.CollectExactlyOneRow(rows, scanAdmin)
	if postgres.IsNoRows(err) {
		return d, core.Errorf(core.ENOTFOUND, "Indicação não encontrada.")
	}
	if err != nil {
		return d, err
	}
	d.AdminRow = row
	if err := s.pool.QueryRow(ctx, `SELECT evidence FROM referrals WHERE id = $1`, id).Scan(&d.Evidence); err != nil {
		return d, err
	}
	rows, err = s.pool.Query(ctx, `SELECT created_at, type, actor_id::text, detail FROM referral_events WHERE referral_id = $1 ORDER BY id`, id)
	if err != nil {
		return d, err
	}
	d.Timeline, err = pgx.CollectRows(rows, pgx.RowToStructByPos[Event])
	if err != nil {
		return d, err
	}
	rows, err = s.pool.Query(ctx, `SELECT DISTINCT u.email FROM referral_devices dv JOIN users u ON u.id = dv.user_id
		WHERE dv.device_id = $1 AND dv.user_id <> $2 ORDER BY 1 LIMIT 20`, row.DeviceID, row.RefereeID)
	if err != nil {
		return d, err
	}
	if d.SameDevice, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return d, err
	}
	rows, err = s.pool.Query(ctx, `SELECT u.email FROM referrals r JOIN users u ON u.id = r.referee_id
		WHERE r.signup_ip = $1 AND r.id <> $2 AND $1 <> '' ORDER BY r.created_at DESC LIMIT 20`, row.SignupIP, id)
	if err != nil {
		return d, err
	}
	d.SameIP, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return d, err
}

// WeekStats is the funnel of one week (Monday, São Paulo).
type WeekStats struct {
	Week     string `json:"week"`
	Clicks   int    `json:"clicks"`
	Signups  int    `json:"signups"`
	Paid     int    `json:"paid"`
	Rewarded int    `json:"rewarded"`
}

// TopReferrer is a member with rewarded referrals.
type TopReferrer struct {
	UserID   string `json:"user_id"`
	Email    string `json:"email"`
	Signups  int    `json:"signups"`
	Rewarded int    `json:"rewarded"`
}

// Stats are the program's numbers.
type Stats struct {
	Weeks   []WeekStats   `json:"weeks"`
	Top     []TopReferrer `json:"top_referrers"`
	Flagged int           `json:"flagged"`
}

// AdminStats is the funnel by week (last 12 weeks) and the top referrers.
func (s *Service) AdminStats(ctx context.Context) (Stats, error) {
	var st Stats
	rows, err := s.pool.Query(ctx, `WITH weeks AS (
			SELECT generate_series(date_trunc('week', timezone('America/Sao_Paulo', $1::timestamptz)) - interval '11 weeks',
				date_trunc('week', timezone('America/Sao_Paulo', $1::timestamptz)), interval '1 week') AS w)
		SELECT to_char(w, 'YYYY-MM-DD'),
			(SELECT count(*) FROM referral_clicks c WHERE date_trunc('week', timezone('America/Sao_Paulo', c.created_at)) = w),
			(SELECT count(*) FROM referrals r WHERE date_trunc('week', timezone('America/Sao_Paulo', r.created_at)) = w),
			(SELECT count(*) FROM referrals r WHERE date_trunc('week', timezone('America/Sao_Paulo', r.paid_at)) = w),
			(SELECT count(*) FROM referrals r WHERE date_trunc('week', timezone('America/Sao_Paulo', r.rewarded_at)) = w)
		FROM weeks ORDER BY w`, s.now())
	if err != nil {
		return st, fmt.Errorf("referral stats: %w", err)
	}
	if st.Weeks, err = pgx.CollectRows(rows, pgx.RowToStructByPos[WeekStats]); err != nil {
		return st, err
	}
	rows, err = s.pool.Query(ctx, `SELECT r.referrer_id, u.email, count(*), count(*) FILTER (WHERE r.rewarded_at IS NOT NULL) AS rewarded
		FROM referrals r JOIN users u ON u.id = r.referrer_id GROUP BY 1, 2 ORDER BY rewarded DESC, 3 DESC, 2 LIMIT 10`)
	if err != nil {
		return st, err
	}
	if st.Top, err = pgx.CollectRows(rows, pgx.RowToStructByPos[TopReferrer]); err != nil {
		return st, err
	}
	err = s.pool.QueryRow(ctx, `SELECT count(*) FROM referrals WHERE verdict = 'flagged'`).Scan(&st.Flagged)
	return st, err
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}
