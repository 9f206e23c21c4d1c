package referrals

import (
	"context"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // the monthly cap counts São Paulo's calendar months on any host

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
)

// The referral's life, as the workflow's activities drive it. Every step
// checks the stored state first, so a retried or repeated step does nothing
// more (and the ledger's idempotency keys keep every credit to one).

// States (referrals.state) and their words for members.
var stateText = map[string]string{
	"cadastrado":   "Cadastro feito — aguardando confirmação do e-mail",
	"confirmado":   "E-mail confirmado — aguardando assinatura",
	"em_carencia":  "Em carência",
	"em_analise":   "Em análise",
	"recompensada": "Recompensa creditada",
	"estornada":    "Recompensa estornada",
	"expirada":     "Expirada",
	"nao_aprovada": "Não aprovada",
	"limite":       "Limite de recompensas atingido",
}

// StateText is state in pt-BR.
func StateText(state string) string { return stateText[state] }

var saoPaulo = func() *time.Location {
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return loc
}()

// Snapshot is a referral as the workflow needs it.
type Snapshot struct {
	ID             string
	ReferrerID     string
	RefereeID      string
	State          string
	Verdict        Verdict
	Reasons        []string
	CreatedAt      time.Time
	EmailConfirmed bool
	PaidAt         *time.Time
	HoldUntil      *time.Time
	// Deadline ends the qualification window (sign-up + window_days).
	Deadline time.Time
	// ReversalUntil ends the window in which a refund or dispute reverses
	// the rewards (paid_at + reversal_days; zero before the payment).
	ReversalUntil time.Time
}

// Final reports whether the referral has ended.
func (s Snapshot) Final() bool {
	switch s.State {
	case "expirada", "nao_aprovada", "limite", "estornada":
		return true
	}
	return false
}

// Load reads the referral and the deadlines the settings imply.
func (s *Service) Load(ctx context.Context, referralID string) (Snapshot, error) {
	var sn Snapshot
	var windowDays, reversalDays int
	err := s.pool.QueryRow(ctx, `SELECT r.id, r.referrer_id, r.referee_id, r.state, r.verdict, r.reasons, r.created_at,
			u.email_confirmed_at IS NOT NULL, r.paid_at, r.hold_until, st.window_days, st.reversal_days
		FROM referrals r JOIN users u ON u.id = r.referee_id CROSS JOIN referral_settings st
		WHERE r.id = $1`, referralID).Scan(&sn.ID, &sn.ReferrerID, &sn.RefereeID, &sn.State, &sn.Verdict, &sn.Reasons,
		&sn.CreatedAt, &sn.EmailConfirmed, &sn.PaidAt, &sn.HoldUntil, &windowDays, &reversalDays)
	if postgres.IsNoRows(err) {
		return sn, core.Errorf(core.ENOTFOUND, "Indicação não encontrada.")
	}
	if err != nil {
		return sn, fmt.Errorf("load referral: %w", err)
	}
	sn.Deadline = sn.CreatedAt.Add(time.Duration(windowDays) * s.opts.Day)
	if sn.PaidAt != nil {
		sn.ReversalUntil = sn.PaidAt.Add(time.Duration(reversalDays) * s.opts.Day)
	}
	return sn, nil
}

// transition moves a referral from one of the states in from to to, with
// extra assignments, and logs the event; false when it was not in from.
func (s *Service) transition(ctx context.Context, q querier, id string, from []string, to, set string, args []any, event string, detail map[string]any) (bool, error) {
	now := s.now()
	sql := `UPDATE referrals SET state = $2` + set + ` WHERE id = $1 AND state = ANY($3)`
	tag, err := q.Exec(ctx, sql, append([]any{id, to, from}, args...)...)
	if err != nil {
		return false, fmt.Errorf("referral %s: %w", event, err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	return true, addEvent(ctx, q, id, event, "", detail, now)
}

// MarkConfirmed records the referee's confirmed e-mail.
func (s *Service) MarkConfirmed(ctx context.Context, id string) error {
	_, err := s.transition(ctx, s.pool, id, []string{"cadastrado"}, "confirmado", `, confirmed_at = $4`, []any{s.now()}, "email_confirmed", nil)
	return err
}

// MarkPaid records the referee's first paid invoice and starts the hold;
// it answers the referral after the step (a second invoice changes nothing).
func (s *Service) MarkPaid(ctx context.Context, id, invoiceID string, paidAt time.Time) (Snapshot, error) {
	_, err := s.transition(ctx, s.pool, id, []string{"cadastrado", "confirmado"}, "em_carencia",
		`, paid_at = $4::timestamptz, invoice_id = $5, hold_until = $4::timestamptz + (SELECT hold_days FROM referral_settings) * make_interval(secs => $6::float8),
		  confirmed_at = coalesce(confirmed_at, $4::timestamptz)`,
		[]any{paidAt, invoiceID, s.opts.Day.Seconds()}, "invoice_paid", map[string]any{"invoice_id": invoiceID, "paid_at": paidAt})
	if err != nil {
		return Snapshot{}, err
	}
	return s.Load(ctx, id)
}

// Expire ends a referral whose referee never paid within the window.
func (s *Service) Expire(ctx context.Context, id string) (bool, error) {
	return s.transition(ctx, s.pool, id, []string{"cadastrado", "confirmado"}, "expirada",
		`, reasons = ARRAY['`+ReasonExpired+`'], ended_at = $4`, []any{s.now()}, "expired", nil)
}

// GrantResult is what Grant did.
type GrantResult struct {
	State   string
	Reasons []string
	Granted bool // this call credited the rewards
}

// Grant re-runs the anti-fraud checks (now with the payment cards), applies
// the caps and credits both sides exactly once: VetCoins through the
// ledger (keys referral:<id>:referrer and :referee) and the referrer's free
// months as a reward row that ApplyCredits hands to billing.
func (s *Service) Grant(ctx context.Context, id string) (GrantResult, error) {
	var res GrantResult
	var f Facts
	var sn Snapshot
	sn, err := s.Load(ctx, id)
	if err != nil {
		return res, err
	}
	// Card fingerprints come from Stripe: read outside the transaction.
	f, err = s.facts(ctx, s.pool, sn.ReferrerID, sn.RefereeID, id, true)
	if err != nil {
		return res, err
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		res = GrantResult{}
		// One referrer's grants are serialised, so the caps hold.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('referral-referrer:' || $1))`, sn.ReferrerID); err != nil {
			return err
		}
		var state string
		var verdict Verdict
		var reviewed bool
		var reasons []string
		if err := tx.QueryRow(ctx, `SELECT state, verdict, reviewed_at IS NOT NULL, reasons FROM referrals WHERE id = $1 FOR UPDATE`, id).
			Scan(&state, &verdict, &reviewed, &reasons); err != nil {
			return fmt.Errorf("lock referral: %w", err)
		}
		res.State, res.Reasons = state, reasons
		if state != "em_carencia" && state != "em_analise" {
			return nil // already rewarded, ended, or not paid yet
		}
		now := s.now()
		if !(reviewed && verdict == Approved) {
			v, found := Check(f)
			if v == Rejected || (v == Flagged && !reviewed) || verdict == Flagged && !reviewed {
				if v == Approved {
					v = Flagged
					found = reasons
				}
				to, ended := "em_analise", (*time.Time)(nil)
				if v == Rejected {
					to, ended = "nao_aprovada", &now
				}
				if state == to {
					return nil
				}
				if _, err := tx.Exec(ctx, `UPDATE referrals SET state = $2, verdict = $3, reasons = $4, ended_at = $5 WHERE id = $1`,
					id, to, v, reasonsOrEmpty(found), ended); err != nil {
					return err
				}
				res.State, res.Reasons = to, found
				return addEvent(ctx, tx, id, "checked", "", map[string]any{"verdict": v, "reasons": reasonsOrEmpty(found)}, now)
			}
		}
		st, err := scanSettings(tx.QueryRow(ctx, `SELECT `+settingsColumns+` FROM referral_settings`))
		if err != nil {
			return err
		}
		local := now.In(saoPaulo)
		monthStart := time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, saoPaulo)
		var inMonth, total int
		if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE rewarded_at >= $2), count(*) FROM referrals
			WHERE referrer_id = $1 AND rewarded_at IS NOT NULL`, sn.ReferrerID, monthStart).Scan(&inMonth, &total); err != nil {
			return err
		}
		capReason := ""
		switch {
		case total >= st.CapTotal:
			capReason = ReasonCapTotal
		case inMonth >= st.CapMonth:
			capReason = ReasonCapMonth
		}
		if capReason != "" {
			if _, err := tx.Exec(ctx, `UPDATE referrals SET state = 'limite', reasons = ARRAY[$2], ended_at = $3 WHERE id = $1`,
				id, capReason, now); err != nil {
				return err
			}
			res.State, res.Reasons = "limite", []string{capReason}
			return addEvent(ctx, tx, id, "capped", "", map[string]any{"reason": capReason, "month": inMonth, "total": total}, now)
		}
		meta := map[string]any{"referral_id": id}
		rewards := []struct {
			user, kind, key string
			amount          int
		}{
			{sn.ReferrerID, "vetcoins", "referral:" + id + ":referrer", st.ReferrerPoints},
			{sn.RefereeID, "vetcoins", "referral:" + id + ":referee", st.RefereePoints},
			{sn.ReferrerID, "free_month", "referral:" + id + ":referrer:free-month", st.ReferrerFreeMonths},
		}
		for _, r := range rewards {
			if r.amount == 0 {
				continue
			}
			if r.kind == "vetcoins" {
				if _, _, err := points.AwardTx(ctx, tx, r.user, r.amount, points.KindReferral, r.key, meta); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO referral_rewards (referral_id, user_id, kind, amount, idempotency_key, created_at)
				VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING`, id, r.user, r.kind, r.amount, r.key, now); err != nil {
				return fmt.Errorf("record reward: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE referrals SET state = 'recompensada', rewarded_at = $2 WHERE id = $1`, id, now); err != nil {
			return err
		}
		res.State, res.Granted = "recompensada", true
		return addEvent(ctx, tx, id, "rewarded", "", map[string]any{"referrer_points": st.ReferrerPoints,
			"referee_points": st.RefereePoints, "free_months": st.ReferrerFreeMonths}, now)
	})
	return res, err
}

// ApplyCredits hands the referral's free-month credits (and their
// reversals) not yet applied to billing, each once by its key. Without
// billing they wait (applied_at stays empty).
func (s *Service) ApplyCredits(ctx context.Context, id string) (pending int, err error) {
	rows, err := s.pool.Query(ctx, `SELECT user_id, amount, idempotency_key FROM referral_rewards
		WHERE referral_id = $1 AND kind = 'free_month' AND applied_at IS NULL ORDER BY id`, id)
	if err != nil {
		return 0, err
	}
	type credit struct {
		user, key string
		months    int
	}
	var list []credit
	for rows.Next() {
		var c credit
		if err := rows.Scan(&c.user, &c.months, &c.key); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, c)
	}
	rows.Close()
	if s.opts.Billing == nil {
		return len(list), nil
	}
	for _, c := range list {
		if err := s.opts.Billing.CreditFreeMonths(ctx, c.user, c.months, c.key); err != nil {
			return len(list), fmt.Errorf("balance credit: %w", err)
		}
		if _, err := s.pool.Exec(ctx, `UPDATE referral_rewards SET applied_at = $2 WHERE idempotency_key = $1 AND applied_at IS NULL`, c.key, s.now()); err != nil {
			return len(list), err
		}
	}
	return 0, nil
}

// Reverse takes the rewards back after a refund or a dispute (kind is
// ReasonRefund or ReasonDispute): ledger debits of what was credited (never
// below the member's balance: spent VetCoins are not clawed into a
// negative balance) and negative free-month rows; a referral not yet
// rewarded simply ends unapproved. false when there was nothing to do.
func (s *Service) Reverse(ctx context.Context, id, kind string) (bool, error) {
	if kind != ReasonRefund && kind != ReasonDispute {
		return false, fmt.Errorf("reverse referral: unknown kind %q", kind)
	}
	changed := false
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		changed = false
		now := s.now()
		var state string
		if err := tx.QueryRow(ctx, `SELECT state FROM referrals WHERE id = $1 FOR UPDATE`, id).Scan(&state); err != nil {
			return fmt.Errorf("lock referral: %w", err)
		}
		switch state {
		case "cadastrado", "confirmado", "em_carencia", "em_analise":
			if _, err := tx.Exec(ctx, `UPDATE referrals SET state = 'nao_aprovada', reasons = ARRAY[$2], ended_at = $3 WHERE id = $1`,
				id, kind, now); err != nil {
				return err
			}
			changed = true
			return addEvent(ctx, tx, id, "payment_reversed", "", map[string]any{"kind": kind}, now)
		case "recompensada":
		default:
			return nil
		}
		rows, err := tx.Query(ctx, `SELECT user_id, kind, amount, idempotency_key FROM referral_rewards
			WHERE referral_id = $1 AND amount > 0 ORDER BY id`, id)
		if err != nil {
			return err
		}
		type reward struct {
			user, kind, key string
			amount          int
		}
		var list []reward
		for rows.Next() {
			var r reward
			if err := rows.Scan(&r.user, &r.kind, &r.amount, &r.key); err != nil {
				rows.Close()
				return err
			}
			list = append(list, r)
		}
		rows.Close()
		for _, r := range list {
			key := r.key + ":reversal"
			amount := -r.amount
			if r.kind == "vetcoins" {
				var balance int
				if err := tx.QueryRow(ctx, `SELECT coalesce((SELECT total_points FROM user_total_points WHERE user_id = $1), 0)`, r.user).Scan(&balance); err != nil {
					return err
				}
				take := min(r.amount, balance)
				if take > 0 {
					if _, _, err := points.AwardTx(ctx, tx, r.user, -take, points.KindReferralReversal, key,
						map[string]any{"referral_id": id, "reason": kind, "requested": r.amount}); err != nil {
						return err
					}
				}
				amount = -r.amount
			}
			if _, err := tx.Exec(ctx, `INSERT INTO referral_rewards (referral_id, user_id, kind, amount, idempotency_key, created_at)
				VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING`, id, r.user, r.kind, amount, key, now); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE referrals SET state = 'estornada', reasons = ARRAY[$2], reversed_at = $3, ended_at = $3 WHERE id = $1`,
			id, kind, now); err != nil {
			return err
		}
		changed = true
		return addEvent(ctx, tx, id, "reversed", "", map[string]any{"kind": kind}, now)
	})
	return changed, err
}

// Review is the staff's decision on a flagged referral, with a note; it is
// recorded on the referral's timeline with the reviewer (the audit).
func (s *Service) Review(ctx context.Context, actorID, id string, approve bool, note string) error {
	note = strings.TrimSpace(note)
	if len([]rune(note)) > 1000 {
		return core.Invalid("A observação pode ter até 1000 caracteres.", map[string]string{"note": "Até 1000 caracteres."})
	}
	if !approve && note == "" {
		return core.Invalid("Explique a reprovação.", map[string]string{"note": "Obrigatória para reprovar."})
	}
	var refereeID string
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var verdict Verdict
		var state string
		err := tx.QueryRow(ctx, `SELECT verdict, state, referee_id FROM referrals WHERE id = $1 FOR UPDATE`, id).Scan(&verdict, &state, &refereeID)
		if postgres.IsNoRows(err) {
			return core.Errorf(core.ENOTFOUND, "Indicação não encontrada.")
		}
		if err != nil {
			return err
		}
		if verdict != Flagged {
			return core.Errorf(core.ECONFLICT, "Esta indicação não está aguardando análise.")
		}
		now := s.now()
		if approve {
			_, err = tx.Exec(ctx, `UPDATE referrals SET verdict = 'approved', reviewed_by = $2, reviewed_at = $3, review_note = $4 WHERE id = $1`,
				id, actorID, now, note)
		} else {
			_, err = tx.Exec(ctx, `UPDATE referrals SET verdict = 'rejected', reviewed_by = $2, reviewed_at = $3, review_note = $4,
				state = CASE WHEN state IN ('recompensada', 'estornada', 'expirada', 'limite', 'nao_aprovada') THEN state ELSE 'nao_aprovada' END,
				reasons = CASE WHEN state IN ('recompensada', 'estornada', 'expirada', 'limite', 'nao_aprovada') THEN reasons ELSE ARRAY['`+ReasonReviewRejected+`'] END,
				ended_at = coalesce(ended_at, $3) WHERE id = $1`, id, actorID, now, note)
		}
		if err != nil {
			return fmt.Errorf("review referral: %w", err)
		}
		decision := "rejected"
		if approve {
			decision = "approved"
		}
		return addEvent(ctx, tx, id, "review", actorID, map[string]any{"decision": decision, "note": note}, now)
	})
	if err != nil {
		return err
	}
	if err := s.opts.Workflows.SignalReferral(ctx, refereeID, SignalReviewed, approve); err != nil {
		s.opts.Log.Warn("signal referral review", "referral", id, "err", err)
	}
	return nil
}

// Notification events and their texts.
const (
	NotifyAccepted    = "accepted"
	NotifySubscribed  = "subscribed"
	NotifyRewarded    = "rewarded"
	NotifyNotApproved = "not_approved"
	NotifyReversed    = "reversed"

	TitleAccepted = "Seu convite foi aceito"
	TitleRewarded = "Recompensa creditada"
)

// TitleSubscribed is 'Seu indicado assinou — a recompensa chega em N dias'.
func TitleSubscribed(holdDays int) string {
	if holdDays == 1 {
		return "Seu indicado assinou — a recompensa chega em 1 dia"
	}
	return fmt.Sprintf("Seu indicado assinou — a recompensa chega em %d dias", holdDays)
}

// TitleNotApproved is 'Indicação não aprovada: {reason}'.
func TitleNotApproved(reasons []string) string {
	r := ReasonsText(reasons)
	if r == "" {
		r = "motivo não informado"
	}
	return "Indicação não aprovada: " + r
}

// Notify tells the referrer (and, for a reward, the referee) about event,
// once per referral and event, through the notifications service (which
// honours the member's preferences and pushes).
func (s *Service) Notify(ctx context.Context, id, event string) error {
	var referrer, referee, state, first, last string
	var reasons []string
	var hold *time.Time
	var holdDays, refPts, refeePts, months int
	err := s.pool.QueryRow(ctx, `SELECT r.referrer_id, r.referee_id, r.state, r.reasons, r.hold_until,
			coalesce(u.metadata->>'first_name', u.metadata->>'given_name', ''), coalesce(u.metadata->>'last_name', u.metadata->>'family_name', ''),
			st.hold_days, st.referrer_points, st.referee_points, st.referrer_free_months
		FROM referrals r JOIN users u ON u.id = r.referee_id CROSS JOIN referral_settings st WHERE r.id = $1`, id).
		Scan(&referrer, &referee, &state, &reasons, &hold, &first, &last, &holdDays, &refPts, &refeePts, &months)
	if err != nil {
		return fmt.Errorf("notify referral: %w", err)
	}
	name := ShortName(first, last)
	key := "notify:referral:" + id + ":" + event
	n := notifications.Notice{UserID: referrer, Type: "referral", Link: "/indique-e-ganhe", IdempotencyKey: key}
	switch event {
	case NotifyAccepted:
		n.Title, n.Message = TitleAccepted, name+" criou uma conta com o seu convite."
	case NotifySubscribed:
		n.Title = TitleSubscribed(holdDays)
		n.Message = name + " assinou o plano."
		if hold != nil {
			n.Message += " A recompensa chega em " + hold.In(saoPaulo).Format("02/01/2006") + "."
		}
	case NotifyRewarded:
		n.Title = TitleRewarded
		n.Message = fmt.Sprintf("Você ganhou %d VetCoins pela indicação de %s.", refPts, name)
		if months == 1 {
			n.Message = fmt.Sprintf("Você ganhou %d VetCoins e 1 mês grátis pela indicação de %s.", refPts, name)
		} else if months > 1 {
			n.Message = fmt.Sprintf("Você ganhou %d VetCoins e %d meses grátis pela indicação de %s.", refPts, months, name)
		}
		if refeePts > 0 {
			if _, err := s.opts.Notifications.Send(ctx, notifications.Notice{UserID: referee, Type: "referral", Link: "/pontos",
				Title: TitleRewarded, Message: fmt.Sprintf("Você ganhou %d VetCoins por entrar com um convite.", refeePts),
				IdempotencyKey: key + ":referee"}); err != nil {
				return err
			}
		}
	case NotifyNotApproved, NotifyReversed:
		n.Title, n.Message = TitleNotApproved(reasons), "Indicação de "+name+"."
	default:
		return fmt.Errorf("notify referral: unknown event %q", event)
	}
	_, err = s.opts.Notifications.Send(ctx, n)
	return err
}

// ShortName is "Ana S.": a referee's first name and the last name's initial.
func ShortName(first, last string) string {
	first = strings.TrimSpace(first)
	if first == "" {
		first = "Alguém"
	}
	if r := []rune(strings.TrimSpace(last)); len(r) > 0 {
		return first + " " + strings.ToUpper(string(r[0])) + "."
	}
	return first
}
