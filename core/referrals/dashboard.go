package referrals

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Totals are the member's program numbers.
type Totals struct {
	Clicks        int `json:"cliques"`
	Signups       int `json:"cadastros"`
	Subscriptions int `json:"assinaturas"`
	Rewards       int `json:"recompensas"`
	VetCoins      int `json:"vetcoins_ganhos"`
}

// Item is one of the member's referrals as they see it.
type Item struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"` // first name and last initial
	State      string     `json:"state"`
	StateText  string     `json:"state_text"`
	ReasonText string     `json:"reason_text,omitempty"`
	RewardAt   *time.Time `json:"reward_at,omitempty"` // while on hold
	CreatedAt  time.Time  `json:"created_at"`
}

// Dashboard is GET /api/referrals/me.
type Dashboard struct {
	Code      string   `json:"code"`
	Link      string   `json:"link"`
	Totals    Totals   `json:"totals"`
	Referrals []Item   `json:"referrals"`
	Settings  Settings `json:"settings"`
}

// Dashboard is userID's code, link, totals and referrals (their own only).
func (s *Service) Dashboard(ctx context.Context, userID string) (Dashboard, error) {
	var d Dashboard
	code, err := s.Code(ctx, userID)
	if err != nil {
		return d, err
	}
	d.Code, d.Link = code, s.Link(code)
	if d.Settings, err = s.Settings(ctx); err != nil {
		return d, err
	}
	err = s.pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM referral_clicks WHERE code = $2),
			(SELECT count(*) FROM referrals WHERE referrer_id = $1),
			(SELECT count(*) FROM referrals WHERE referrer_id = $1 AND paid_at IS NOT NULL),
			(SELECT count(*) FROM referrals WHERE referrer_id = $1 AND state = 'recompensada'),
			(SELECT coalesce(sum(amount), 0) FROM referral_rewards WHERE user_id = $1 AND kind = 'vetcoins')`,
		userID, code).Scan(&d.Totals.Clicks, &d.Totals.Signups, &d.Totals.Subscriptions, &d.Totals.Rewards, &d.Totals.VetCoins)
	if err != nil {
		return d, fmt.Errorf("referral totals: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT r.id, coalesce(u.metadata->>'first_name', u.metadata->>'given_name', ''),
			coalesce(u.metadata->>'last_name', u.metadata->>'family_name', ''), r.state, r.reasons, r.hold_until, r.created_at
		FROM referrals r JOIN users u ON u.id = r.referee_id
		WHERE r.referrer_id = $1 ORDER BY r.created_at DESC LIMIT 200`, userID)
	if err != nil {
		return d, fmt.Errorf("referral list: %w", err)
	}
	d.Referrals, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (Item, error) {
		var it Item
		var first, last string
		var reasons []string
		var hold *time.Time
		if err := row.Scan(&it.ID, &first, &last, &it.State, &reasons, &hold, &it.CreatedAt); err != nil {
			return it, err
		}
		it.Name, it.StateText = ShortName(first, last), StateText(it.State)
		switch it.State {
		case "em_carencia":
			it.RewardAt = hold
		case "nao_aprovada", "limite", "expirada", "estornada":
			it.ReasonText = ReasonsText(reasons)
		}
		return it, nil
	})
	if err != nil {
		return d, fmt.Errorf("referral list: %w", err)
	}
	if d.Referrals == nil {
		d.Referrals = []Item{}
	}
	return d, nil
}
