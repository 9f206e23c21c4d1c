package billing

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// AdminSubscription is one row of the backoffice's Assinaturas list.
type AdminSubscription struct {
	ID                string     `json:"id"`
	UserID            string     `json:"user_id"`
	Email             string     `json:"email"`
	Name              string     `json:"name"`
	Status            string     `json:"status"`
	Plan              *string    `json:"plan"`
	CurrentPeriodEnd  *time.Time `json:"current_period_end"`
	CancelAtPeriodEnd bool       `json:"cancel_at_period_end"`
	PaymentFailed     bool       `json:"payment_failed"`
}

// AdminQuery is the list's filter and page.
type AdminQuery struct {
	Status, Plan, Q string
	Sort            string
	Descending      bool
	Offset, Limit   int
}

// AdminSubscriptionSorts are the list's sort fields.
var AdminSubscriptionSorts = []string{"email", "status", "current_period_end", "plan"}

// ListSubscriptions is the backoffice's list of members with a billing row.
func (s *Service) ListSubscriptions(ctx context.Context, q AdminQuery) ([]AdminSubscription, int64, error) {
	where := []string{"true"}
	args := []any{}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if q.Status != "" {
		add("b.status = $%d", q.Status)
	}
	if q.Plan != "" {
		add("b.tier = $%d", map[string]string{"monthly": TierMonthly, "yearly": TierYearly}[q.Plan])
	}
	if q.Q != "" {
		add("u.email ILIKE '%%' || $%d || '%%'", q.Q)
	}
	order := "b.updated_at DESC"
	if q.Sort != "" {
		col := map[string]string{"email": "u.email", "status": "b.status", "current_period_end": "b.current_period_end", "plan": "b.tier"}[q.Sort]
		dir := "ASC"
		if q.Descending {
			dir = "DESC"
		}
		order = col + " " + dir + " NULLS LAST, u.email"
	}
	from := ` FROM billing_subscriptions b JOIN users u ON u.id = b.user_id LEFT JOIN profiles p ON p.user_id = b.user_id WHERE ` + strings.Join(where, " AND ")
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*)`+from, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count subscriptions: %w", err)
	}
	args = append(args, q.Limit, q.Offset)
	rows, err := s.pool.Query(ctx, `SELECT b.user_id::text, u.email, coalesce(btrim(p.first_name || ' ' || p.last_name), ''), b.status, b.tier,
		b.current_period_end, b.cancel_at_period_end, b.payment_failed_at IS NOT NULL`+from+
		fmt.Sprintf(` ORDER BY %s LIMIT $%d OFFSET $%d`, order, len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list subscriptions: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AdminSubscription, error) {
		var a AdminSubscription
		var tier *string
		err := r.Scan(&a.UserID, &a.Email, &a.Name, &a.Status, &tier, &a.CurrentPeriodEnd, &a.CancelAtPeriodEnd, &a.PaymentFailed)
		a.ID, a.Plan = a.UserID, planOf(tier)
		return a, err
	})
	return list, total, err
}

// MonthMetrics is one month of the billing metrics.
type MonthMetrics struct {
	Month     string  `json:"month"`
	MRRCents  int64   `json:"mrr_cents"`
	Active    int     `json:"active"`
	Churned   int     `json:"churned"`
	ChurnRate float64 `json:"churn_rate"`
}

// Metrics are MRR and churn of the last 12 months (the current one last):
// a month's MRR is the monthly value of the subscriptions running at its
// end (a yearly plan counts a twelfth), churned those that ended in it,
// churn rate churned over those running at its start.
func (s *Service) Metrics(ctx context.Context) ([]MonthMetrics, error) {
	monthly, yearly := int64(0), int64(0)
	if s.cfg.PriceMonthly != "" {
		if p, err := s.price(ctx, s.cfg.PriceMonthly); err == nil {
			monthly = p.Amount
		}
	}
	if s.cfg.PriceYearly != "" {
		if p, err := s.price(ctx, s.cfg.PriceYearly); err == nil {
			yearly = p.Amount
		}
	}
	now := s.now().UTC()
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -11, 0)
	rows, err := s.pool.Query(ctx, `WITH months AS (
			SELECT m AS start, m + interval '1 month' AS stop FROM generate_series($1::timestamptz, $1::timestamptz + interval '11 months', interval '1 month') m
		), subs AS (
			SELECT tier, coalesce(started_at, updated_at) AS started, CASE WHEN status IN ('canceled', 'incomplete_expired') THEN coalesce(ended_at, updated_at) END AS ended
			FROM billing_subscriptions WHERE status NOT IN ('', 'incomplete')
		)
		SELECT to_char(m.start, 'YYYY-MM'),
			count(*) FILTER (WHERE s.started < least(m.stop, $2) AND (s.ended IS NULL OR s.ended >= least(m.stop, $2)) AND s.tier = 'premium_monthly'),
			count(*) FILTER (WHERE s.started < least(m.stop, $2) AND (s.ended IS NULL OR s.ended >= least(m.stop, $2)) AND s.tier = 'premium_yearly'),
			count(*) FILTER (WHERE s.ended >= m.start AND s.ended < m.stop),
			count(*) FILTER (WHERE s.started < m.start AND (s.ended IS NULL OR s.ended >= m.start))
		FROM months m LEFT JOIN subs s ON true GROUP BY m.start ORDER BY m.start`, first, now)
	if err != nil {
		return nil, fmt.Errorf("billing metrics: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (MonthMetrics, error) {
		var m MonthMetrics
		var nm, ny, atStart int
		if err := r.Scan(&m.Month, &nm, &ny, &m.Churned, &atStart); err != nil {
			return m, err
		}
		m.Active = nm + ny
		m.MRRCents = int64(nm)*monthly + int64(ny)*yearly/12
		if atStart > 0 {
			m.ChurnRate = float64(m.Churned) / float64(atStart)
		}
		return m, nil
	})
}

// TimelineEntry is one line of a member's billing timeline.
type TimelineEntry struct {
	At     time.Time `json:"at"`
	Source string    `json:"source"`
	Type   string    `json:"type"`
	Detail string    `json:"detail"`
}

// Timeline is a member's Stripe events and the entitlement changes they
// caused, newest first.
func (s *Service) Timeline(ctx context.Context, userID string) ([]TimelineEntry, error) {
	rows, err := s.pool.Query(ctx, `SELECT created, type, status, entitlement_changed, coalesce(applied_at, received_at),
			coalesce(payload #>> '{data,object,status}', '')
		FROM billing_events WHERE user_id = $1 ORDER BY created DESC, id DESC LIMIT 200`, userID)
	if err != nil {
		return nil, fmt.Errorf("timeline: %w", err)
	}
	out := []TimelineEntry{}
	for rows.Next() {
		var at, appliedAt time.Time
		var typ, status, objStatus string
		var changed bool
		if err := rows.Scan(&at, &typ, &status, &changed, &appliedAt, &objStatus); err != nil {
			rows.Close()
			return nil, fmt.Errorf("timeline: %w", err)
		}
		if changed && s.hist == nil {
			out = append(out, TimelineEntry{At: appliedAt, Source: "entitlement", Type: "entitlement.changed",
				Detail: "Acesso recalculado após " + typ})
		}
		detail := "evento " + map[string]string{EventApplied: "aplicado", EventIgnored: "ignorado (mais antigo que o estado atual ou repetido)",
			EventFailed: "com falha", EventReceived: "recebido"}[status]
		if objStatus != "" {
			detail += "; status " + objStatus
		}
		out = append(out, TimelineEntry{At: at, Source: "stripe", Type: typ, Detail: detail})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("timeline: %w", err)
	}
	if s.hist != nil {
		ent, err := s.hist(ctx, userID)
		if err != nil {
			return nil, err
		}
		out = append(out, ent...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	}
	x, err := getRow(ctx, s.pool, userID)
	if err != nil {
		return nil, err
	}
	if x == nil && len(out) == 0 {
		return nil, errNotFound("Este membro não tem assinatura.")
	}
	return out, nil
}

// AdminEvent is one row of Eventos do Stripe.
type AdminEvent struct {
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	Status     string    `json:"status"`
	Attempts   int       `json:"attempts"`
	LagMS      int64     `json:"lag_ms"`
	ReceivedAt time.Time `json:"received_at"`
	Error      string    `json:"error"`
	UserID     *string   `json:"user_id"`
	Source     string    `json:"source"`
}

// AdminEventSorts are the events list's sort fields.
var AdminEventSorts = []string{"received_at", "type", "status", "lag_ms", "attempts"}

// ListEvents is the webhook inbox, newest first by default.
func (s *Service) ListEvents(ctx context.Context, q AdminQuery, typ string) ([]AdminEvent, int64, error) {
	where := []string{"true"}
	args := []any{}
	if q.Status != "" {
		args = append(args, q.Status)
		where = append(where, fmt.Sprintf("status = $%d", len(args)))
	}
	if typ != "" {
		args = append(args, typ)
		where = append(where, fmt.Sprintf("type = $%d", len(args)))
	}
	order := "received_at DESC, id"
	if q.Sort != "" {
		dir := "ASC"
		if q.Descending {
			dir = "DESC"
		}
		order = q.Sort + " " + dir + ", id"
	}
	cond := strings.Join(where, " AND ")
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count events: %w", err)
	}
	args = append(args, q.Limit, q.Offset)
	rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT id, type, status, attempts, lag_ms, received_at, error, user_id::text, source
		FROM billing_events WHERE %s ORDER BY %s LIMIT $%d OFFSET $%d`, cond, order, len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list events: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AdminEvent, error) {
		var e AdminEvent
		err := r.Scan(&e.ID, &e.Type, &e.Status, &e.Attempts, &e.LagMS, &e.ReceivedAt, &e.Error, &e.UserID, &e.Source)
		return e, err
	})
	return list, total, err
}

// Diagnostics is GET /api/billing/diagnostics.
type Diagnostics struct {
	Configured   map[string]bool `json:"configured"`
	Mode         string          `json:"mode"`
	APIVersion   string          `json:"api_version"`
	APIReachable bool            `json:"api_reachable"`
	APILatencyMS int64           `json:"api_latency_ms"`
	APIError     string          `json:"api_error,omitempty"`
	WebhookURL   string          `json:"webhook_url"`
	LastEvents   []DiagEvent     `json:"last_events"`
}

// DiagEvent is one of the last events received.
type DiagEvent struct {
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	Status     string    `json:"status"`
	ReceivedAt time.Time `json:"received_at"`
	LagMS      int64     `json:"lag_ms"`
}

// Diagnostics checks the configuration, reaches the API and lists the
// last events.
func (s *Service) Diagnostics(ctx context.Context) (Diagnostics, error) {
	d := Diagnostics{
		Configured: map[string]bool{"secret_key": s.cfg.SecretKey != "", "webhook_secret": s.cfg.WebhookSecret != "",
			"price_monthly": s.cfg.PriceMonthly != "", "price_yearly": s.cfg.PriceYearly != ""},
		Mode: s.cfg.Mode(), APIVersion: APIVersion, WebhookURL: s.cfg.WebhookURL(), LastEvents: []DiagEvent{},
	}
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := s.sc.V1Prices.Retrieve(cctx, s.cfg.PriceMonthly, nil)
	d.APILatencyMS = time.Since(start).Milliseconds()
	d.APIReachable = err == nil
	if err != nil {
		d.APIError = "A API do Stripe não respondeu como esperado."
	}
	rows, err := s.pool.Query(ctx, `SELECT id, type, status, received_at, lag_ms FROM billing_events ORDER BY received_at DESC, id LIMIT 20`)
	if err != nil {
		return d, fmt.Errorf("last events: %w", err)
	}
	d.LastEvents, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (DiagEvent, error) {
		var e DiagEvent
		err := r.Scan(&e.ID, &e.Type, &e.Status, &e.ReceivedAt, &e.LagMS)
		return e, err
	})
	return d, err
}
