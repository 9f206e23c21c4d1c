package pluginhost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/sqlwire"
)

// requestContext is what a request token stands for while a plugin serves
// that request: calls acting for a user must carry a live token.
type requestContext struct {
	principal core.Principal
	requestID string
	// extend gives the request more time while the host works for it (an
	// AI generation); nil outside Handle.
	extend func(time.Duration)
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// hostAPI answers one plugin's calls back into the core.
type hostAPI struct {
	pluginpb.UnimplementedHostServer
	p *plugin
}

func (h *hostAPI) id() string { return baseName(h.p.path) }

func (h *hostAPI) user(token string) (requestContext, error) {
	v, ok := h.p.tokens.Load(token)
	if !ok || token == "" {
		return requestContext{}, status.Error(codes.PermissionDenied, "no live request: user calls are only allowed while serving a request")
	}
	rc := v.(requestContext)
	if !rc.principal.Authenticated() {
		return requestContext{}, status.Error(codes.PermissionDenied, "the request has no signed-in user")
	}
	return rc, nil
}

func internal(err error) error { return status.Error(codes.Internal, err.Error()) }

func (h *hostAPI) GetCurrentProfile(ctx context.Context, req *pluginpb.GetCurrentProfileRequest) (*pluginpb.PublicProfile, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	// Only the public view (never email, phone or CPF), read without writing.
	p, err := h.p.m.opts.Profiles.Public(ctx, rc.principal.UserID)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil, status.Error(codes.NotFound, "user not found")
	}
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.PublicProfile{UserId: rc.principal.UserID, FirstName: p.FirstName, LastName: p.LastName, Title: p.Title, AvatarUrl: p.AvatarURL, Crmv: p.CRMV}, nil
}

// AwardVetCoins credits the current user, at most DailyVetCoins per plugin
// per user per UTC day. The budget check and the credit run in one
// transaction under a lock per plugin and user, so concurrent calls cannot
// both pass the check; a retried key returns its first award and costs
// nothing.
func (h *hostAPI) AwardVetCoins(ctx context.Context, req *pluginpb.AwardVetCoinsRequest) (*pluginpb.AwardVetCoinsResponse, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if req.Amount <= 0 || req.Amount > 10000 {
		return nil, status.Error(codes.InvalidArgument, "amount must be between 1 and 10000")
	}
	if strings.TrimSpace(req.IdempotencyKey) == "" {
		return nil, status.Error(codes.InvalidArgument, "idempotency_key is required")
	}
	// A plugin credits its own kind or challenge points (quizzes, mock
	// exams); every other kind (courses, referrals, redemptions) belongs to
	// the core's features.
	kind := points.KindPlugin
	switch req.Kind {
	case "", string(points.KindPlugin):
	case string(points.KindChallenge):
		kind = points.KindChallenge
	default:
		return nil, status.Error(codes.InvalidArgument, "kind must be plugin or challenge")
	}
	// The key is scoped by plugin so two plugins cannot collide.
	id, user, budget := h.id(), rc.principal.UserID, h.p.m.opts.DailyVetCoins
	key := "plugin:" + id + ":" + req.IdempotencyKey
	var entry points.Entry
	var created bool
	err = postgres.InTx(ctx, h.p.m.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('plugin-award:' || $1 || ':' || $2))`, id, user); err != nil {
			return err
		}
		seen, err := points.UsedTx(ctx, tx, key)
		if err != nil {
			return err
		}
		if !seen {
			// The budget covers everything the plugin credits, of either kind.
			today, err := points.AwardedTodayTx(ctx, tx, user, points.KindPlugin, "plugin", id)
			if err != nil {
				return err
			}
			challenge, err := points.AwardedTodayTx(ctx, tx, user, points.KindChallenge, "plugin", id)
			if err != nil {
				return err
			}
			today += challenge
			if today+req.Amount > int64(budget) {
				return &budgetError{plugin: id, awarded: today, asked: req.Amount, budget: budget}
			}
		}
		entry, created, err = points.AwardTx(ctx, tx, user, int(req.Amount), kind, key,
			map[string]any{"plugin": id, "reason": req.Reason})
		return err
	})
	var be *budgetError
	if errors.As(err, &be) {
		h.p.log.Warn("plugin VetCoins budget exhausted", "user", user, "awarded_today", be.awarded, "asked", be.asked, "budget", be.budget)
		return nil, status.Error(codes.ResourceExhausted, be.Error())
	}
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.AwardVetCoinsResponse{AwardId: fmt.Sprint(entry.ID), Duplicate: !created}, nil
}

type budgetError struct {
	plugin         string
	awarded, asked int64
	budget         int
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("daily VetCoins budget exhausted: plugin %s already awarded %d of %d to this user today (UTC) and asked for %d more",
		e.plugin, e.awarded, e.budget, e.asked)
}

// SendNotification goes through the notifications store, which also
// publishes the live event the user's open pages listen to.
func (h *hostAPI) SendNotification(ctx context.Context, req *pluginpb.SendNotificationRequest) (*pluginpb.SendNotificationResponse, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Title) == "" || strings.TrimSpace(req.IdempotencyKey) == "" {
		return nil, status.Error(codes.InvalidArgument, "title and idempotency_key are required")
	}
	key := "plugin:" + h.id() + ":" + req.IdempotencyKey
	n, created, err := h.p.m.opts.Notifications.Create(ctx, rc.principal.UserID, "plugin", req.Title, req.Body, key)
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.SendNotificationResponse{NotificationId: n.ID, Duplicate: !created}, nil
}

// expiry is when a value set now with ttl seconds stops being readable (nil:
// never). Expiries are written and compared against the manager's clock,
// never the database's, so one clock decides.
func (h *hostAPI) expiry(ttl int64) *time.Time {
	if ttl <= 0 {
		return nil
	}
	t := h.p.m.opts.Now().Add(time.Duration(ttl) * time.Second)
	return &t
}

func (h *hostAPI) KVGet(ctx context.Context, req *pluginpb.KVGetRequest) (*pluginpb.KVGetResponse, error) {
	var v []byte
	err := h.p.m.pool.QueryRow(ctx, `
		SELECT value FROM plugin_kv
		WHERE plugin_id = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)`, h.id(), req.Key, h.p.m.opts.Now()).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return &pluginpb.KVGetResponse{}, nil
	}
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.KVGetResponse{Found: true, Value: v}, nil
}

func (h *hostAPI) KVSet(ctx context.Context, req *pluginpb.KVSetRequest) (*pluginpb.KVSetResponse, error) {
	if req.Key == "" {
		return nil, status.Error(codes.InvalidArgument, "key is required")
	}
	_, err := h.p.m.pool.Exec(ctx, `
		INSERT INTO plugin_kv (plugin_id, key, value, expires_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (plugin_id, key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at, updated_at = now()`,
		h.id(), req.Key, nonNil(req.Value), h.expiry(req.TtlSeconds))
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.KVSetResponse{}, nil
}

// KVCompareAndSet is atomic in one statement: concurrent writers that read
// the same old value race on the row lock and only the first one's WHERE
// still matches after it.
func (h *hostAPI) KVCompareAndSet(ctx context.Context, req *pluginpb.KVCompareAndSetRequest) (*pluginpb.KVCompareAndSetResponse, error) {
	if req.Key == "" {
		return nil, status.Error(codes.InvalidArgument, "key is required")
	}
	var sql string
	args := []any{h.id(), req.Key, nonNil(req.NewValue), h.expiry(req.TtlSeconds), h.p.m.opts.Now()}
	if req.OldExists {
		sql = `UPDATE plugin_kv SET value = $3, expires_at = $4, updated_at = now()
			WHERE plugin_id = $1 AND key = $2 AND value = $6 AND (expires_at IS NULL OR expires_at > $5)`
		args = append(args, nonNil(req.OldValue))
	} else {
		// "Only if absent": an expired row counts as absent and is replaced.
		sql = `INSERT INTO plugin_kv (plugin_id, key, value, expires_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (plugin_id, key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at, updated_at = now()
			WHERE plugin_kv.expires_at IS NOT NULL AND plugin_kv.expires_at <= $5`
	}
	tag, err := h.p.m.pool.Exec(ctx, sql, args...)
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.KVCompareAndSetResponse{Swapped: tag.RowsAffected() == 1}, nil
}

func (h *hostAPI) KVDelete(ctx context.Context, req *pluginpb.KVDeleteRequest) (*pluginpb.KVDeleteResponse, error) {
	if _, err := h.p.m.pool.Exec(ctx, `DELETE FROM plugin_kv WHERE plugin_id = $1 AND key = $2`, h.id(), req.Key); err != nil {
		return nil, internal(err)
	}
	return &pluginpb.KVDeleteResponse{}, nil
}

func (h *hostAPI) KVList(ctx context.Context, req *pluginpb.KVListRequest) (*pluginpb.KVListResponse, error) {
	limit := req.Limit
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	rows, err := h.p.m.pool.Query(ctx, `
		SELECT key FROM plugin_kv
		WHERE plugin_id = $1 AND starts_with(key, $2) AND (expires_at IS NULL OR expires_at > $4)
		ORDER BY key LIMIT $3`, h.id(), req.Prefix, limit, h.p.m.opts.Now())
	if err != nil {
		return nil, internal(err)
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, internal(err)
	}
	// Expired rows are purged lazily, off the caller's path.
	now := h.p.m.opts.Now()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = h.p.m.pool.Exec(ctx, `DELETE FROM plugin_kv WHERE plugin_id = $1 AND expires_at <= $2`, h.id(), now)
	}()
	return &pluginpb.KVListResponse{Keys: keys}, nil
}

// SQLExec and SQLQuery run exactly one statement on the plugin's own
// connections (never the core's), as its own role (sandbox.go).
func (h *hostAPI) SQLExec(ctx context.Context, req *pluginpb.SQLRequest) (*pluginpb.SQLExecResponse, error) {
	args, err := sqlwire.DecodeArgs(req.ArgsJson)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	_, n, err := h.p.m.pluginSQL(ctx, h.id(), req.Query, args, false)
	if err != nil {
		return nil, sqlError(err)
	}
	return &pluginpb.SQLExecResponse{RowsAffected: n}, nil
}

func (h *hostAPI) SQLQuery(ctx context.Context, req *pluginpb.SQLRequest) (*pluginpb.SQLQueryResponse, error) {
	args, err := sqlwire.DecodeArgs(req.ArgsJson)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	out, _, err := h.p.m.pluginSQL(ctx, h.id(), req.Query, args, true)
	if err != nil {
		return nil, sqlError(err)
	}
	return &pluginpb.SQLQueryResponse{RowsJson: out}, nil
}

// sqlError tells a refused statement (PermissionDenied) from one that
// PostgreSQL rejected (InvalidArgument); both carry the reason.
func sqlError(err error) error {
	var refused *SQLRefusedError
	if errors.As(err, &refused) {
		return status.Error(codes.PermissionDenied, err.Error())
	}
	return status.Error(codes.InvalidArgument, err.Error())
}

func (h *hostAPI) Log(ctx context.Context, req *pluginpb.LogRequest) (*pluginpb.LogResponse, error) {
	level := slog.LevelInfo
	switch req.Level {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	}
	attrs := []any{"plugin", h.id()}
	var extra map[string]any
	if len(req.AttrsJson) > 0 && json.Unmarshal(req.AttrsJson, &extra) == nil {
		for k, v := range extra {
			if k == "plugin" {
				continue // the id is the host's to say
			}
			attrs = append(attrs, k, v)
		}
	}
	h.p.m.log.Log(ctx, level, req.Message, attrs...)
	return &pluginpb.LogResponse{}, nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
