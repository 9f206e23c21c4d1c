package sdktest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// client answers the SDK's Host calls in memory. It sits where the gRPC
// client to the core sits, so the plugin's calls go through the SDK's own
// Host code (argument encoding, row decoding, error wrapping) unchanged.
type client struct{ h *Host }

var _ pluginpb.HostClient = (*client)(nil)

func (c *client) GetCurrentProfile(_ context.Context, req *pluginpb.GetCurrentProfileRequest, _ ...grpc.CallOption) (*pluginpb.PublicProfile, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("GetCurrentProfile"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	p, ok := h.profiles[u.ID]
	if !ok {
		return nil, errorf(codes.NotFound, "user not found (set one with sdktest.Host.SetProfile)")
	}
	return &pluginpb.PublicProfile{UserId: u.ID, FirstName: p.FirstName, LastName: p.LastName, Title: p.Title, AvatarUrl: p.AvatarURL, Crmv: p.CRMV}, nil
}

func (c *client) AwardVetCoins(_ context.Context, req *pluginpb.AwardVetCoinsRequest, _ ...grpc.CallOption) (*pluginpb.AwardVetCoinsResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("AwardVetCoins"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if req.Amount <= 0 || req.Amount > 10000 {
		return nil, errorf(codes.InvalidArgument, "amount must be between 1 and 10000")
	}
	if strings.TrimSpace(req.IdempotencyKey) == "" {
		return nil, errorf(codes.InvalidArgument, "idempotency_key is required")
	}
	kind := req.Kind
	if kind == "" {
		kind = "plugin"
	}
	if kind != "plugin" && kind != "challenge" {
		return nil, errorf(codes.InvalidArgument, "kind must be plugin or challenge")
	}
	// As in the core, a key counts once whoever retries it.
	if _, seen := h.awardKeys[req.IdempotencyKey]; seen {
		return &pluginpb.AwardVetCoinsResponse{Duplicate: true}, nil
	}
	if h.dailyVetCoins > 0 {
		if today := h.awardedToday(u.ID); today+req.Amount > h.dailyVetCoins {
			return nil, errorf(codes.ResourceExhausted, "daily VetCoins budget exhausted: already awarded %d of %d to this user today (UTC) and asked for %d more",
				today, h.dailyVetCoins, req.Amount)
		}
	}
	a := Award{UserID: u.ID, Amount: req.Amount, Reason: req.Reason, IdempotencyKey: req.IdempotencyKey, Kind: kind, At: h.Clock.Now()}
	h.awards = append(h.awards, a)
	h.awardKeys[req.IdempotencyKey] = a
	return &pluginpb.AwardVetCoinsResponse{AwardId: req.IdempotencyKey}, nil
}

func (c *client) SendNotification(_ context.Context, req *pluginpb.SendNotificationRequest, _ ...grpc.CallOption) (*pluginpb.SendNotificationResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("SendNotification"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Title) == "" || strings.TrimSpace(req.IdempotencyKey) == "" {
		return nil, errorf(codes.InvalidArgument, "title and idempotency_key are required")
	}
	if _, seen := h.notifKeys[req.IdempotencyKey]; seen {
		return &pluginpb.SendNotificationResponse{Duplicate: true}, nil
	}
	n := Notification{UserID: u.ID, Title: req.Title, Body: req.Body, IdempotencyKey: req.IdempotencyKey, At: h.Clock.Now()}
	h.notifications = append(h.notifications, n)
	h.notifKeys[req.IdempotencyKey] = n
	return &pluginpb.SendNotificationResponse{NotificationId: req.IdempotencyKey}, nil
}

func (c *client) KVGet(_ context.Context, req *pluginpb.KVGetRequest, _ ...grpc.CallOption) (*pluginpb.KVGetResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("KVGet"); err != nil {
		return nil, err
	}
	e, ok := h.liveKV(req.Key)
	if !ok {
		return &pluginpb.KVGetResponse{}, nil
	}
	return &pluginpb.KVGetResponse{Found: true, Value: bytes.Clone(e.value)}, nil
}

func (c *client) KVSet(_ context.Context, req *pluginpb.KVSetRequest, _ ...grpc.CallOption) (*pluginpb.KVSetResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("KVSet"); err != nil {
		return nil, err
	}
	if req.Key == "" {
		return nil, errorf(codes.InvalidArgument, "key is required")
	}
	h.kv[req.Key] = kvEntry{value: nonNil(req.Value), expires: h.expiry(req.TtlSeconds)}
	return &pluginpb.KVSetResponse{}, nil
}

// KVCompareAndSet holds the lock across the comparison and the write, so
// concurrent callers that read the same old value cannot both swap.
func (c *client) KVCompareAndSet(_ context.Context, req *pluginpb.KVCompareAndSetRequest, _ ...grpc.CallOption) (*pluginpb.KVCompareAndSetResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("KVCompareAndSet"); err != nil {
		return nil, err
	}
	if req.Key == "" {
		return nil, errorf(codes.InvalidArgument, "key is required")
	}
	cur, exists := h.liveKV(req.Key) // an expired entry counts as absent
	switch {
	case req.OldExists && (!exists || !bytes.Equal(cur.value, nonNil(req.OldValue))):
		return &pluginpb.KVCompareAndSetResponse{}, nil
	case !req.OldExists && exists:
		return &pluginpb.KVCompareAndSetResponse{}, nil
	}
	h.kv[req.Key] = kvEntry{value: nonNil(req.NewValue), expires: h.expiry(req.TtlSeconds)}
	return &pluginpb.KVCompareAndSetResponse{Swapped: true}, nil
}

func (c *client) KVDelete(_ context.Context, req *pluginpb.KVDeleteRequest, _ ...grpc.CallOption) (*pluginpb.KVDeleteResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("KVDelete"); err != nil {
		return nil, err
	}
	delete(h.kv, req.Key)
	return &pluginpb.KVDeleteResponse{}, nil
}

func (c *client) KVList(_ context.Context, req *pluginpb.KVListRequest, _ ...grpc.CallOption) (*pluginpb.KVListResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("KVList"); err != nil {
		return nil, err
	}
	limit := int(req.Limit)
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	keys := h.liveKeys(req.Prefix)
	if len(keys) > limit {
		keys = keys[:limit]
	}
	return &pluginpb.KVListResponse{Keys: keys}, nil
}

func (c *client) SQLExec(ctx context.Context, req *pluginpb.SQLRequest, _ ...grpc.CallOption) (*pluginpb.SQLExecResponse, error) {
	if err := c.sqlReady("SQLExec"); err != nil {
		return nil, err
	}
	_, n, err := c.h.sql.run(ctx, req.Query, req.ArgsJson, false)
	if err != nil {
		return nil, err
	}
	return &pluginpb.SQLExecResponse{RowsAffected: n}, nil
}

func (c *client) SQLQuery(ctx context.Context, req *pluginpb.SQLRequest, _ ...grpc.CallOption) (*pluginpb.SQLQueryResponse, error) {
	if err := c.sqlReady("SQLQuery"); err != nil {
		return nil, err
	}
	out, _, err := c.h.sql.run(ctx, req.Query, req.ArgsJson, true)
	if err != nil {
		return nil, err
	}
	return &pluginpb.SQLQueryResponse{RowsJson: out}, nil
}

func (c *client) sqlReady(method string) error {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure(method); err != nil {
		return err
	}
	if h.sql == nil {
		return errorf(codes.FailedPrecondition, "sdktest: this fake host has no SQL; create it with sdktest.New(t, sdktest.WithSQL(migrations))")
	}
	return nil
}

func (c *client) Log(_ context.Context, req *pluginpb.LogRequest, _ ...grpc.CallOption) (*pluginpb.LogResponse, error) {
	attrs := map[string]any{}
	if len(req.AttrsJson) > 0 {
		_ = json.Unmarshal(req.AttrsJson, &attrs)
	}
	h := c.h
	h.mu.Lock()
	h.logs = append(h.logs, LogRecord{Level: req.Level, Message: req.Message, Attrs: attrs})
	h.mu.Unlock()
	h.t.Logf("plugin log %s: %s %v", req.Level, req.Message, attrs)
	return &pluginpb.LogResponse{}, nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return bytes.Clone(b)
}
