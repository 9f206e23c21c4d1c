// Package rewards is the VetCoins shop: a catalogue of rewards (a discount
// coupon on the subscription, a course unlocked, a certificate frame,
// partner voucher codes) and the members' redemptions.
//
// A redemption is one transaction: the member's redemptions are decided one
// at a time (an advisory lock), the reward row is locked, the per-member
// limit and the stock are checked and the stock decremented, the VetCoins
// are debited through core/points (kind redemption, which never overdraws)
// and what can be delivered inside the database (a voucher code, the
// course, the frame) is delivered in the same transaction. A coupon is made
// at Stripe after the commit; if that fails the redemption is refunded
// (a redemption_refund ledger entry, the stock restored). The client's
// idempotency key makes a repeated click return the first redemption.
package rewards

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
)

// Kinds of reward.
const (
	KindCoupon           = "coupon"
	KindCourse           = "course"
	KindCertificateFrame = "certificate_frame"
	KindVoucher          = "voucher"
)

// Redemption statuses.
const (
	StatusPending   = "pending"
	StatusDelivered = "delivered"
	StatusRefunded  = "refunded"
)

// Frames a certificate_frame reward may unlock.
var Frames = []string{"ouro", "prata", "esmeralda"}

// pt-BR messages the member and staff see.
const (
	MsgNotFound        = "Recompensa não encontrada."
	MsgSoldOut         = "Esta recompensa está esgotada."
	MsgLimit           = "Você já atingiu o limite de resgates desta recompensa."
	MsgPremium         = "Recompensa exclusiva para membros Premium."
	MsgBalance         = "Saldo de VetCoins insuficiente."
	MsgDeliveryFailed  = "Não foi possível entregar a recompensa agora. Seus VetCoins foram devolvidos; tente novamente mais tarde."
	MsgKeyReused       = "Esta chave de idempotência já foi usada em outro resgate."
	MsgBadKey          = "Chave de idempotência inválida."
	MsgRedemptionGone  = "Resgate não encontrado."
	MsgAlreadyRefunded = "Este resgate já foi estornado."
)

// Refusal reasons, in the error's fields under "reason", so the shop can
// show the Premium invitation or the right message.
const (
	ReasonPremium = "premium"
	ReasonSoldOut = "esgotado"
	ReasonLimit   = "limite"
	ReasonBalance = "saldo"
)

func refuse(code, reason, msg string) error {
	return &core.Error{Code: code, Message: msg, Fields: map[string]string{"reason": reason}}
}

// CouponIssuer makes the Stripe coupon of a coupon reward (core/billing).
type CouponIssuer interface {
	CreateRewardCoupon(ctx context.Context, userID string, percentOff float64, durationMonths int, idempotencyKey string) (string, error)
}

// Options are the service's collaborators.
type Options struct {
	// Premium says whether the member has a paid plan (premium-only rewards).
	Premium func(ctx context.Context, userID string) (bool, error)
	// Coupons issues coupon rewards; nil: coupon rewards fail and are refunded.
	Coupons CouponIssuer
	Log     *slog.Logger
}

// Service is the shop.
type Service struct {
	pool *pgxpool.Pool
	o    Options
}

// New returns the shop on pool.
func New(pool *pgxpool.Pool, o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, o: o}
}

// Config is what a reward delivers, by kind.
type Config struct {
	PercentOff     float64 `json:"percent_off,omitempty"`
	DurationMonths int     `json:"duration_months,omitempty"`
	CourseID       string  `json:"course_id,omitempty"`
	Frame          string  `json:"frame,omitempty"`
}

// Reward is one catalogue entry.
type Reward struct {
	ID             string    `json:"id"`
	Title          string    `json:"title"`
	Description    string    `json:"description"`
	ImageURL       string    `json:"image_url"`
	Kind           string    `json:"kind"`
	Cost           int       `json:"cost"`
	Stock          *int      `json:"stock"`
	PerMemberLimit *int      `json:"per_member_limit"`
	PremiumOnly    bool      `json:"premium_only"`
	Active         bool      `json:"active"`
	Instructions   string    `json:"instructions"`
	Config         Config    `json:"config"`
	Position       int       `json:"position"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

const rewardColumns = `id, title, description, image_url, kind, cost, stock, per_member_limit, premium_only, active,
	instructions, config, position, created_at, updated_at`

func scanReward(row pgx.Row) (Reward, error) {
	var r Reward
	var cfg []byte
	err := row.Scan(&r.ID, &r.Title, &r.Description, &r.ImageURL, &r.Kind, &r.Cost, &r.Stock, &r.PerMemberLimit,
		&r.PremiumOnly, &r.Active, &r.Instructions, &cfg, &r.Position, &r.CreatedAt, &r.UpdatedAt)
	if err != nil {
		return r, err
	}
	if len(cfg) > 0 {
		_ = json.Unmarshal(cfg, &r.Config)
	}
	return r, nil
}

// Redemption is one reward bought by a member.
type Redemption struct {
	ID           string     `json:"id"`
	UserID       string     `json:"user_id,omitempty"`
	RewardID     string     `json:"reward_id"`
	Kind         string     `json:"kind"`
	Title        string     `json:"title"`
	Cost         int        `json:"cost"`
	Status       string     `json:"status"`
	Code         string     `json:"code"`
	Instructions string     `json:"instructions"`
	RefundReason string     `json:"refund_reason"`
	RefundedAt   *time.Time `json:"refunded_at"`
	DeliveredAt  *time.Time `json:"delivered_at"`
	CreatedAt    time.Time  `json:"created_at"`
	// Email is the member's, in the backoffice list only.
	Email string `json:"email,omitempty"`
}

const redemptionColumns = `r.id, coalesce(r.user_id::text, ''), r.reward_id, r.kind, r.title, r.cost, r.status, r.code, r.instructions,
	r.refund_reason, r.refunded_at, r.delivered_at, r.created_at`

func scanRedemption(row pgx.Row, extra ...any) (Redemption, error) {
	var d Redemption
	dest := append([]any{&d.ID, &d.UserID, &d.RewardID, &d.Kind, &d.Title, &d.Cost, &d.Status, &d.Code, &d.Instructions,
		&d.RefundReason, &d.RefundedAt, &d.DeliveredAt, &d.CreatedAt}, extra...)
	err := row.Scan(dest...)
	return d, err
}

// ShopReward is a catalogue entry as a member sees it: whether they may
// redeem it now and, when not, why.
type ShopReward struct {
	Reward
	Redeemed  int    `json:"redeemed"`
	Available bool   `json:"available"`
	Blocked   string `json:"blocked,omitempty"`
}

// Shop lists the active catalogue for userID.
func (s *Service) Shop(ctx context.Context, userID string) ([]ShopReward, error) {
	premium, err := s.premium(ctx, userID)
	if err != nil {
		return nil, err
	}
	var balance int
	if err := s.pool.QueryRow(ctx, `SELECT coalesce((SELECT total_points FROM user_total_points WHERE user_id = $1), 0)`, userID).Scan(&balance); err != nil {
		return nil, fmt.Errorf("shop balance: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+rewardColumns+`,
		(SELECT count(*) FROM reward_redemptions d WHERE d.reward_id = rewards.id AND d.user_id = $1 AND d.status <> 'refunded')
		FROM rewards WHERE active ORDER BY position, created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("shop: %w", err)
	}
	defer rows.Close()
	out := []ShopReward{}
	for rows.Next() {
		var sr ShopReward
		var cfg []byte
		err := rows.Scan(&sr.ID, &sr.Title, &sr.Description, &sr.ImageURL, &sr.Kind, &sr.Cost, &sr.Stock, &sr.PerMemberLimit,
			&sr.PremiumOnly, &sr.Active, &sr.Instructions, &cfg, &sr.Position, &sr.CreatedAt, &sr.UpdatedAt, &sr.Redeemed)
		if err != nil {
			return nil, fmt.Errorf("shop: %w", err)
		}
		_ = json.Unmarshal(cfg, &sr.Config)
		switch {
		case sr.Stock != nil && *sr.Stock <= 0:
			sr.Blocked = ReasonSoldOut
		case sr.PremiumOnly && !premium:
			sr.Blocked = ReasonPremium
		case sr.PerMemberLimit != nil && sr.Redeemed >= *sr.PerMemberLimit:
			sr.Blocked = ReasonLimit
		case balance < sr.Cost:
			sr.Blocked = ReasonBalance
		}
		sr.Available = sr.Blocked == ""
		out = append(out, sr)
	}
	return out, rows.Err()
}

func (s *Service) premium(ctx context.Context, userID string) (bool, error) {
	if s.o.Premium == nil {
		return false, nil
	}
	return s.o.Premium(ctx, userID)
}

// ValidKey reports whether an idempotency key from a client is usable:
// 8 to 100 printable ASCII characters.
func ValidKey(k string) bool {
	if len(k) < 8 || len(k) > 100 {
		return false
	}
	for _, r := range k {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) || r == ' ' {
			return false
		}
	}
	return true
}

func validUUID(s string) bool { return len(s) == 36 && uuid.Validate(s) == nil }

func ledgerKey(redemptionID string) string { return "reward-redemption:" + redemptionID }
func refundKey(redemptionID string) string { return "reward-refund:" + redemptionID }

// Redeem buys rewardID for userID once per idempotencyKey: a repeated call
// with the same key returns the first redemption (created=false).
func (s *Service) Redeem(ctx context.Context, userID, rewardID, idempotencyKey string) (d Redemption, created bool, err error) {
	if !ValidKey(idempotencyKey) {
		return Redemption{}, false, core.Invalid(MsgBadKey, map[string]string{"idempotency_key": "Use de 8 a 100 caracteres visíveis."})
	}
	if !validUUID(rewardID) {
		return Redemption{}, false, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	premium, err := s.premium(ctx, userID)
	if err != nil {
		return Redemption{}, false, fmt.Errorf("redeem premium: %w", err)
	}
	var r Reward
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		// One member's redemptions are decided one at a time: the key,
		// the per-member limit and the balance are one decision.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('reward-redeem:' || $1::text, 0))`, userID); err != nil {
			return err
		}
		prev, err := scanRedemption(tx.QueryRow(ctx, `SELECT `+redemptionColumns+` FROM reward_redemptions r
			WHERE r.user_id = $1 AND r.idempotency_key = $2`, userID, idempotencyKey))
		if err == nil {
			if prev.RewardID != rewardID {
				return core.Errorf(core.ECONFLICT, MsgKeyReused)
			}
			d = prev
			return nil
		}
		if !postgres.IsNoRows(err) {
			return err
		}
		r, err = scanReward(tx.QueryRow(ctx, `SELECT `+rewardColumns+` FROM rewards WHERE id = $1 AND active FOR UPDATE`, rewardID))
		if postgres.IsNoRows(err) {
			return core.Errorf(core.ENOTFOUND, MsgNotFound)
		}
		if err != nil {
			return err
		}
		if r.PremiumOnly && !premium {
			return refuse(core.EFORBIDDEN, ReasonPremium, MsgPremium)
		}
		if r.PerMemberLimit != nil {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM reward_redemptions WHERE reward_id = $1 AND user_id = $2 AND status <> 'refunded'`,
				rewardID, userID).Scan(&n); err != nil {
				return err
			}
			if n >= *r.PerMemberLimit {
				return refuse(core.ECONFLICT, ReasonLimit, MsgLimit)
			}
		}
		if r.Stock != nil {
			// The row is locked: the stock check and decrement are one step.
			if *r.Stock <= 0 {
				return refuse(core.ECONFLICT, ReasonSoldOut, MsgSoldOut)
			}
			if _, err := tx.Exec(ctx, `UPDATE rewards SET stock = stock - 1 WHERE id = $1`, rewardID); err != nil {
				return err
			}
		}
		d, err = scanRedemption(tx.QueryRow(ctx, `INSERT INTO reward_redemptions AS r
			(user_id, reward_id, idempotency_key, kind, title, cost, status, instructions)
			VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7) RETURNING `+redemptionColumns,
			userID, rewardID, idempotencyKey, r.Kind, r.Title, r.Cost, r.Instructions))
		if err != nil {
			return err
		}
		_, _, err = points.AwardTx(ctx, tx, userID, -r.Cost, points.KindRedemption, ledgerKey(d.ID),
			map[string]any{"reward_id": r.ID, "reward": r.Title, "redemption_id": d.ID})
		if err != nil {
			if core.ErrorCode(err) == core.ECONFLICT {
				return refuse(core.ECONFLICT, ReasonBalance, MsgBalance)
			}
			return err
		}
		created = true
		if r.Kind == KindCoupon {
			return nil // delivered after the commit
		}
		code, err := s.deliverTx(ctx, tx, r, d.ID, userID)
		if err != nil {
			return err
		}
		d, err = scanRedemption(tx.QueryRow(ctx, `UPDATE reward_redemptions r SET status = 'delivered', code = $2, delivered_at = now()
			WHERE id = $1 RETURNING `+redemptionColumns, d.ID, code))
		return err
	})
	if err != nil {
		if core.ErrorCode(err) != core.EINTERNAL {
			return Redemption{}, false, err
		}
		return Redemption{}, false, fmt.Errorf("redeem: %w", err)
	}
	if d.Status == StatusPending && d.Kind == KindCoupon {
		// A first attempt, or a retry of one whose delivery was cut short.
		d, err = s.deliverCoupon(ctx, d)
		if err != nil {
			return Redemption{}, false, err
		}
	}
	return d, created, nil
}

// grantKey names a course grant by the redemption that made it.
func grantKey(redemptionID string) string { return "reward:" + redemptionID }

// deliverTx delivers what lives in the database, inside the redemption's
// transaction, and returns the code the member sees.
func (s *Service) deliverTx(ctx context.Context, tx pgx.Tx, r Reward, redemptionID, userID string) (string, error) {
	switch r.Kind {
	case KindVoucher:
		var code string
		err := tx.QueryRow(ctx, `UPDATE reward_vouchers SET redemption_id = $2, assigned_at = now()
			WHERE id = (SELECT id FROM reward_vouchers WHERE reward_id = $1 AND redemption_id IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
			RETURNING code`, r.ID, redemptionID).Scan(&code)
		if postgres.IsNoRows(err) {
			return "", refuse(core.ECONFLICT, ReasonSoldOut, MsgSoldOut)
		}
		return code, err
	case KindCourse:
		if err := courses.GrantTx(ctx, tx, r.Config.CourseID, userID, grantKey(redemptionID)); err != nil {
			return "", err
		}
		return "", nil
	case KindCertificateFrame:
		_, err := tx.Exec(ctx, `INSERT INTO reward_certificate_frames (user_id, frame, redemption_id) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, frame) DO UPDATE SET redemption_id = EXCLUDED.redemption_id`, userID, r.Config.Frame, redemptionID)
		return "", err
	}
	return "", fmt.Errorf("deliver: unknown reward kind %q", r.Kind)
}

// deliverCoupon makes the coupon at Stripe; on failure the redemption is
// refunded and the member told their VetCoins came back.
func (s *Service) deliverCoupon(ctx context.Context, d Redemption) (Redemption, error) {
	var cfg Config
	var cfgRaw []byte
	if err := s.pool.QueryRow(ctx, `SELECT config FROM rewards WHERE id = $1`, d.RewardID).Scan(&cfgRaw); err != nil {
		return d, fmt.Errorf("coupon config: %w", err)
	}
	_ = json.Unmarshal(cfgRaw, &cfg)
	var code string
	err := errors.New("no coupon issuer configured")
	if s.o.Coupons != nil {
		code, err = s.o.Coupons.CreateRewardCoupon(ctx, d.UserID, cfg.PercentOff, cfg.DurationMonths, "reward-coupon:"+d.ID)
	}
	if err != nil {
		s.o.Log.WarnContext(ctx, "reward coupon delivery failed; refunding", "redemption", d.ID, "err", err)
		if _, rerr := s.refund(ctx, d.ID, "", refundNote(err)); rerr != nil {
			return d, fmt.Errorf("refund after failed delivery: %w (delivery: %v)", rerr, err)
		}
		if core.ErrorCode(err) == core.ECONFLICT {
			// Refused by billing (no live subscription): say why.
			return d, refuse(core.ECONFLICT, ReasonPremium, core.ErrorMessage(err)+" Seus VetCoins foram devolvidos.")
		}
		return d, &core.Error{Code: core.EUNAVAILABLE, Message: MsgDeliveryFailed, Err: err}
	}
	out, err := scanRedemption(s.pool.QueryRow(ctx, `UPDATE reward_redemptions r SET status = 'delivered', code = $2, delivered_at = now()
		WHERE id = $1 AND status = 'pending' RETURNING `+redemptionColumns, d.ID, code))
	if postgres.IsNoRows(err) {
		// Refunded meanwhile (staff): answer the row as it is.
		return s.redemption(ctx, d.ID)
	}
	return out, err
}

func (s *Service) redemption(ctx context.Context, id string) (Redemption, error) {
	d, err := scanRedemption(s.pool.QueryRow(ctx, `SELECT `+redemptionColumns+` FROM reward_redemptions r WHERE r.id = $1`, id))
	if postgres.IsNoRows(err) {
		return d, core.Errorf(core.ENOTFOUND, MsgRedemptionGone)
	}
	return d, err
}

// refund gives a redemption's VetCoins back (a compensating ledger entry),
// restores the stock and takes back a frame; a voucher code already shown
// stays spent, and a course already opened stays open. actorID is the
// staff member ("" = the system, after a failed delivery). Refunding twice
// changes nothing.
func (s *Service) refund(ctx context.Context, id, actorID, reason string) (Redemption, error) {
	if !validUUID(id) {
		return Redemption{}, core.Errorf(core.ENOTFOUND, MsgRedemptionGone)
	}
	var d Redemption
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var userID string
		err := tx.QueryRow(ctx, `SELECT coalesce(user_id::text, '') FROM reward_redemptions WHERE id = $1`, id).Scan(&userID)
		if postgres.IsNoRows(err) {
			return core.Errorf(core.ENOTFOUND, MsgRedemptionGone)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('reward-redeem:' || $1::text, 0))`, userID); err != nil {
			return err
		}
		d, err = scanRedemption(tx.QueryRow(ctx, `SELECT `+redemptionColumns+` FROM reward_redemptions r WHERE r.id = $1 FOR UPDATE`, id))
		if err != nil {
			return err
		}
		if d.Status == StatusRefunded {
			return core.Errorf(core.ECONFLICT, MsgAlreadyRefunded)
		}
		if userID != "" {
			if _, _, err := points.AwardTx(ctx, tx, userID, d.Cost, points.KindRedemptionRefund, refundKey(d.ID),
				map[string]any{"reward_id": d.RewardID, "reward": d.Title, "redemption_id": d.ID}); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE rewards SET stock = stock + 1 WHERE id = $1 AND stock IS NOT NULL`, d.RewardID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM reward_certificate_frames WHERE redemption_id = $1`, d.ID); err != nil {
			return err
		}
		// A course the reward opened closes again (the member's own access,
		// by plan or trial, stays). A voucher code already shown cannot be
		// taken back: it stays with this redemption, never handed to another.
		if d.Kind == KindCourse && userID != "" {
			if err := courses.RevokeGrantTx(ctx, tx, userID, grantKey(d.ID)); err != nil {
				return err
			}
		}
		var actor *string
		if actorID != "" {
			actor = &actorID
		}
		d, err = scanRedemption(tx.QueryRow(ctx, `UPDATE reward_redemptions r SET status = 'refunded', refund_reason = $2,
			refunded_by = $3, refunded_at = now() WHERE id = $1 RETURNING `+redemptionColumns, d.ID, strings.TrimSpace(reason), actor))
		if err != nil {
			return err
		}
		return auditTx(ctx, tx, actorID, "refund", d.RewardID, d.ID, map[string]any{"reason": reason, "cost": d.Cost, "user_id": userID})
	})
	if err != nil && core.ErrorCode(err) == core.EINTERNAL {
		return Redemption{}, fmt.Errorf("refund: %w", err)
	}
	return d, err
}

func auditTx(ctx context.Context, tx pgx.Tx, actorID, action, rewardID, target string, details map[string]any) error {
	b, err := json.Marshal(details)
	if err != nil {
		return err
	}
	var actor, reward *string
	if actorID != "" {
		actor = &actorID
	}
	if rewardID != "" {
		reward = &rewardID
	}
	_, err = tx.Exec(ctx, `INSERT INTO reward_audit (actor_id, action, reward_id, target_id, details) VALUES ($1, $2, $3, $4, $5)`,
		actor, action, reward, target, b)
	return err
}

// Mine lists userID's redemptions, newest first, with codes and how to use them.
func (s *Service) Mine(ctx context.Context, userID string) ([]Redemption, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+redemptionColumns+` FROM reward_redemptions r
		WHERE r.user_id = $1 ORDER BY r.created_at DESC, r.id LIMIT 200`, userID)
	if err != nil {
		return nil, fmt.Errorf("my redemptions: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Redemption, error) { return scanRedemption(row) })
	if err != nil {
		return nil, fmt.Errorf("my redemptions: %w", err)
	}
	if out == nil {
		out = []Redemption{}
	}
	return out, nil
}

// MyFrames lists the certificate frames userID unlocked.
func (s *Service) MyFrames(ctx context.Context, userID string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT frame FROM reward_certificate_frames WHERE user_id = $1 ORDER BY created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("my frames: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if out == nil {
		out = []string{}
	}
	return out, err
}

// Frame is the frame userID's certificates use: the one selected, else the
// latest unlocked, else "" (the plain certificate).
func (s *Service) Frame(ctx context.Context, userID string) (string, error) {
	var f string
	err := s.pool.QueryRow(ctx, `SELECT frame FROM reward_certificate_frames WHERE user_id = $1
		ORDER BY selected DESC, created_at DESC LIMIT 1`, userID).Scan(&f)
	if postgres.IsNoRows(err) {
		return "", nil
	}
	return f, err
}

func refundNote(err error) string {
	if core.ErrorCode(err) == core.ECONFLICT {
		return "Cupom não entregue: " + core.ErrorMessage(err)
	}
	return "Falha na entrega do cupom (Stripe indisponível)."
}
