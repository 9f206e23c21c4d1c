//go:build !js

package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// Host is the core's API as a plugin sees it, reached back through the
// go-plugin broker. Calls that act for a user (profile, VetCoins,
// notifications) take the request's context: the host knows which signed-in
// user the request belongs to and refuses calls outside a request.
type Host struct {
	c   pluginpb.HostClient
	log *slog.Logger
	// AI is the core's AI service (ai.go).
	AI *AI
	// PublishedContent reads published content items (hostpublished.go).
	PublishedContent *PublishedContent
}

func newHost(c pluginpb.HostClient) *Host {
	h := &Host{c: c, AI: &AI{c: c}, PublishedContent: &PublishedContent{c: c}}
	h.log = slog.New(&hostLogHandler{c: c})
	return h
}

// Logger returns a slog logger whose records land in the core's log, tagged
// with the plugin id.
func (h *Host) Logger() *slog.Logger { return h.log }

// Profile is a user's public profile.
type Profile struct {
	UserID, FirstName, LastName, Title, AvatarURL string
	// CRMV is the council registration shown on the public profile
	// ("CRMV-SP 12345"), empty when the member has none.
	CRMV string
}

// CurrentProfile returns the public profile of the request's user.
func (h *Host) CurrentProfile(ctx context.Context) (Profile, error) {
	p, err := h.c.GetCurrentProfile(ctx, &pluginpb.GetCurrentProfileRequest{RequestToken: requestToken(ctx)})
	if err != nil {
		return Profile{}, fmt.Errorf("host: current profile: %w", err)
	}
	return Profile{UserID: p.UserId, FirstName: p.FirstName, LastName: p.LastName, Title: p.Title, AvatarURL: p.AvatarUrl, CRMV: p.Crmv}, nil
}

// VetCoins ledger kinds a plugin may credit (AwardKind). The host refuses
// any other.
const (
	VetCoinsPlugin    = "plugin"    // the default: a tool's own reward
	VetCoinsChallenge = "challenge" // answers to quizzes and mock exams (counted as challenge points)
)

// AwardOption changes how AwardVetCoins credits.
type AwardOption func(*pluginpb.AwardVetCoinsRequest)

// AwardKind credits the VetCoins under the ledger kind (VetCoinsPlugin or
// VetCoinsChallenge) instead of the default.
func AwardKind(kind string) AwardOption {
	return func(r *pluginpb.AwardVetCoinsRequest) { r.Kind = kind }
}

// AwardVetCoins credits amount to the request's user once per idempotency
// key: a retry with the same key reports duplicate and awards nothing.
func (h *Host) AwardVetCoins(ctx context.Context, amount int64, reason, idempotencyKey string, opts ...AwardOption) (duplicate bool, err error) {
	req := &pluginpb.AwardVetCoinsRequest{
		RequestToken: requestToken(ctx), Amount: amount, Reason: reason, IdempotencyKey: idempotencyKey,
	}
	for _, o := range opts {
		o(req)
	}
	res, err := h.c.AwardVetCoins(ctx, req)
	if err != nil {
		return false, fmt.Errorf("host: award vetcoins: %w", err)
	}
	return res.Duplicate, nil
}

// SendNotification stores an in-app notification for the request's user,
// once per idempotency key.
func (h *Host) SendNotification(ctx context.Context, title, message, idempotencyKey string) (duplicate bool, err error) {
	res, err := h.c.SendNotification(ctx, &pluginpb.SendNotificationRequest{
		RequestToken: requestToken(ctx), Title: title, Body: message, IdempotencyKey: idempotencyKey,
	})
	if err != nil {
		return false, fmt.Errorf("host: send notification: %w", err)
	}
	return res.Duplicate, nil
}

// KVGet returns the value stored under key in this plugin's key-value store.
func (h *Host) KVGet(ctx context.Context, key string) (value []byte, found bool, err error) {
	res, err := h.c.KVGet(ctx, &pluginpb.KVGetRequest{Key: key})
	if err != nil {
		return nil, false, fmt.Errorf("host: kv get %q: %w", key, err)
	}
	return res.Value, res.Found, nil
}

// KVSet stores value under key; ttlSeconds 0 keeps it until deleted.
func (h *Host) KVSet(ctx context.Context, key string, value []byte, ttlSeconds int64) error {
	if _, err := h.c.KVSet(ctx, &pluginpb.KVSetRequest{Key: key, Value: value, TtlSeconds: ttlSeconds}); err != nil {
		return fmt.Errorf("host: kv set %q: %w", key, err)
	}
	return nil
}

// KVCompareAndSet stores newValue only if the current value equals oldValue
// (oldValue nil: only if the key is absent). It reports whether it swapped.
func (h *Host) KVCompareAndSet(ctx context.Context, key string, oldValue, newValue []byte, ttlSeconds int64) (bool, error) {
	res, err := h.c.KVCompareAndSet(ctx, &pluginpb.KVCompareAndSetRequest{
		Key: key, OldExists: oldValue != nil, OldValue: oldValue, NewValue: newValue, TtlSeconds: ttlSeconds,
	})
	if err != nil {
		return false, fmt.Errorf("host: kv compare-and-set %q: %w", key, err)
	}
	return res.Swapped, nil
}

// KVDelete removes key.
func (h *Host) KVDelete(ctx context.Context, key string) error {
	if _, err := h.c.KVDelete(ctx, &pluginpb.KVDeleteRequest{Key: key}); err != nil {
		return fmt.Errorf("host: kv delete %q: %w", key, err)
	}
	return nil
}

// KVList returns up to limit keys starting with prefix, in order.
func (h *Host) KVList(ctx context.Context, prefix string, limit int) ([]string, error) {
	res, err := h.c.KVList(ctx, &pluginpb.KVListRequest{Prefix: prefix, Limit: int32(limit)})
	if err != nil {
		return nil, fmt.Errorf("host: kv list %q: %w", prefix, err)
	}
	return res.Keys, nil
}

// Exec runs a statement in the plugin's own schema (see Tool.Migrations).
func (h *Host) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	a, err := json.Marshal(argsOrEmpty(args))
	if err != nil {
		return 0, fmt.Errorf("host: exec args: %w", err)
	}
	res, err := h.c.SQLExec(ctx, &pluginpb.SQLRequest{Query: query, ArgsJson: a})
	if err != nil {
		return 0, fmt.Errorf("host: exec: %w", err)
	}
	return res.RowsAffected, nil
}

// Query runs a query in the plugin's own schema and decodes the rows (a JSON
// array of objects keyed by column name) into dest, typically a *[]T.
func (h *Host) Query(ctx context.Context, dest any, query string, args ...any) error {
	a, err := json.Marshal(argsOrEmpty(args))
	if err != nil {
		return fmt.Errorf("host: query args: %w", err)
	}
	res, err := h.c.SQLQuery(ctx, &pluginpb.SQLRequest{Query: query, ArgsJson: a})
	if err != nil {
		return fmt.Errorf("host: query: %w", err)
	}
	if err := json.Unmarshal(res.RowsJson, dest); err != nil {
		return fmt.Errorf("host: decode rows: %w", err)
	}
	return nil
}

func argsOrEmpty(args []any) []any {
	if args == nil {
		return []any{}
	}
	return args
}

// hostLogHandler ships slog records to the core's log.
type hostLogHandler struct {
	c     pluginpb.HostClient
	attrs []slog.Attr
	group string
}

func (h *hostLogHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *hostLogHandler) Handle(ctx context.Context, r slog.Record) error {
	attrs := map[string]any{}
	add := func(a slog.Attr) {
		key := a.Key
		if h.group != "" {
			key = h.group + "." + key
		}
		attrs[key] = a.Value.Resolve().Any()
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(func(a slog.Attr) bool { add(a); return true })
	b, err := json.Marshal(attrs)
	if err != nil {
		b = []byte("{}")
	}
	level := "info"
	switch {
	case r.Level >= slog.LevelError:
		level = "error"
	case r.Level >= slog.LevelWarn:
		level = "warn"
	case r.Level < slog.LevelInfo:
		level = "debug"
	}
	// Logging must not fail a request whose context is already done.
	_, err = h.c.Log(context.WithoutCancel(ctx), &pluginpb.LogRequest{Level: level, Message: r.Message, AttrsJson: b})
	return err
}

func (h *hostLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	n := *h
	n.attrs = append(append([]slog.Attr{}, h.attrs...), attrs...)
	return &n
}

func (h *hostLogHandler) WithGroup(name string) slog.Handler {
	n := *h
	n.group = name
	return &n
}
