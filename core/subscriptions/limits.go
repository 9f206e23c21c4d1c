package subscriptions

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/postgres"
)

// Limit statuses, besides the allowed ones: no_user (no account) and error.
const (
	LimitNoUser    = "no_user"
	LimitError     = "error"
	LimitPremium   = "premium"
	LimitWithin    = "within_limit"
	LimitReached   = "limit_reached"
	LimitUnlimited = -1
)

// LimitCheck is check_trial_limits' answer.
type LimitCheck struct {
	Allowed bool   `json:"allowed"`
	Current int    `json:"current"`
	Limit   int    `json:"limit"`
	Status  string `json:"status"`
}

// UsageCounter reports a member's current use of a limit type that its
// feature counts itself (the AI assistant counts questions per day).
type UsageCounter func(ctx context.Context, userID string) (int, error)

// CountUsageWith makes check_trial_limits read limitType's current use from
// fn instead of trial_usage. Call it while building the app, before serving.
func (s *Service) CountUsageWith(limitType string, fn UsageCounter) {
	if s.counters == nil {
		s.counters = map[string]UsageCounter{}
	}
	s.counters[limitType] = fn
}

// CheckTrialLimits says whether userID may use one more of limitType:
// premium users always may; everyone else within the configured limit.
// It never returns an error: a failure is status "error" with allowed false.
func (s *Service) CheckTrialLimits(ctx context.Context, userID, limitType string) LimitCheck {
	if userID == "" {
		return LimitCheck{Status: LimitNoUser}
	}
	limit, known := s.limits[limitType]
	if !known {
		return LimitCheck{Status: LimitError}
	}
	v, err := s.View(ctx, userID)
	if err != nil {
		s.log.Error("check trial limits", "user", userID, "err", err)
		return LimitCheck{Status: LimitError}
	}
	var used int
	if count, ok := s.counters[limitType]; ok {
		used, err = count(ctx, userID)
	} else {
		err = s.pool.QueryRow(ctx, `SELECT used FROM trial_usage WHERE user_id = $1 AND limit_type = $2`, userID, limitType).Scan(&used)
	}
	if err != nil && !postgres.IsNoRows(err) {
		s.log.Error("check trial limits", "user", userID, "err", err)
		return LimitCheck{Status: LimitError}
	}
	if v.IsPremium {
		return LimitCheck{Allowed: true, Current: used, Limit: LimitUnlimited, Status: LimitPremium}
	}
	if used < limit {
		return LimitCheck{Allowed: true, Current: used, Limit: limit, Status: LimitWithin}
	}
	return LimitCheck{Allowed: false, Current: used, Limit: limit, Status: LimitReached}
}

// CheckCount says whether userID may have one more of limitType when they
// already have used of it, counted by the caller (a plugin counts its own
// patients): the rules of CheckTrialLimits with the caller's count. Premium
// is unlimited (Limit -1); everyone else is allowed while used is below
// TRIAL_LIMITS' figure. A type TRIAL_LIMITS does not configure is an
// EINVALID error: nothing says what its limit is.
func (s *Service) CheckCount(ctx context.Context, userID, limitType string, used int) (LimitCheck, error) {
	if userID == "" {
		return LimitCheck{Status: LimitNoUser}, core.NotSignedIn()
	}
	limit, known := s.limits[limitType]
	if !known {
		return LimitCheck{Status: LimitError}, core.Errorf(core.EINVALID, "Tipo de limite desconhecido.")
	}
	v, err := s.View(ctx, userID)
	if err != nil {
		return LimitCheck{Status: LimitError}, fmt.Errorf("check count %s: %w", limitType, err)
	}
	switch {
	case v.IsPremium:
		return LimitCheck{Allowed: true, Current: used, Limit: LimitUnlimited, Status: LimitPremium}, nil
	case used < limit:
		return LimitCheck{Allowed: true, Current: used, Limit: limit, Status: LimitWithin}, nil
	}
	return LimitCheck{Allowed: false, Current: used, Limit: limit, Status: LimitReached}, nil
}

// RowQuerier runs one statement: a pool, or the caller's transaction.
type RowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// RecordUsageTx counts one use of limitType inside the caller's transaction,
// refusing atomically when a non-premium user is at the limit (so concurrent
// uses cannot overshoot), so the use
// and what it pays for (an enrolment) commit or roll back together.
func (s *Service) RecordUsageTx(ctx context.Context, q RowQuerier, userID, limitType string) (LimitCheck, error) {
	limit, known := s.limits[limitType]
	if !known {
		return LimitCheck{Status: LimitError}, core.Invalid("Tipo de limite desconhecido.", map[string]string{"limit_type": "Desconhecido."})
	}
	// Read through q: inside a caller's transaction that holds a lock, a
	// second pool connection could be the one a waiting request holds.
	sub, err := getSubscriber(ctx, q, userID, false)
	if err != nil {
		return LimitCheck{Status: LimitError}, err
	}
	v := ViewOf(sub, s.now())
	max := limit
	if v.IsPremium {
		max = int(^uint32(0) >> 1)
	}
	var used int
	err = q.QueryRow(ctx, `INSERT INTO trial_usage (user_id, limit_type, used) SELECT $1, $2, 1 WHERE $3 > 0
		ON CONFLICT (user_id, limit_type) DO UPDATE SET used = trial_usage.used + 1, updated_at = now()
		WHERE trial_usage.used < $3
		RETURNING used`, userID, limitType, max).Scan(&used)
	if postgres.IsNoRows(err) {
		return LimitCheck{Allowed: false, Current: limit, Limit: limit, Status: LimitReached},
			core.Errorf(core.EFORBIDDEN, "Você atingiu o limite do seu plano. Faça upgrade para continuar.")
	}
	if err != nil {
		return LimitCheck{Status: LimitError}, fmt.Errorf("record usage: %w", err)
	}
	if v.IsPremium {
		return LimitCheck{Allowed: true, Current: used, Limit: LimitUnlimited, Status: LimitPremium}, nil
	}
	return LimitCheck{Allowed: used < limit, Current: used, Limit: limit, Status: map[bool]string{true: LimitWithin, false: LimitReached}[used < limit]}, nil
}

// HandleView serves GET /api/subscription.
func HandleView(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		v, err := s.View(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, v)
	})
}

// HandleLimits serves GET /api/subscription/limits/{limitType}.
func HandleLimits(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		c := s.CheckTrialLimits(r.Context(), core.PrincipalFrom(r.Context()).UserID, chi.URLParam(r, "limitType"))
		return httpx.Encode(w, http.StatusOK, c)
	})
}
