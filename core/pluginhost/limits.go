package pluginhost

import (
	"context"
	"slices"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// LimitAnswer is a Limiter's verdict on one more use of a trial limit.
type LimitAnswer struct {
	Allowed bool
	Limit   int // -1: unlimited (Premium)
	Used    int
}

// Limiter decides trial limits for plugins (core/subscriptions implements
// it): Premium members are unlimited, everyone else has TRIAL_LIMITS'
// figure for name; used is the plugin's own count for the member. An
// unconfigured name is an error.
type Limiter interface {
	CheckPluginLimit(ctx context.Context, userID, name string, used int) (LimitAnswer, error)
}

// limiterSlot holds the Limiter, which the app builds after the plugins
// start (SetLimiter).
type limiterSlot struct {
	mu sync.RWMutex
	l  Limiter
}

// SetLimiter sets what answers the plugins' CheckLimit calls; until it is
// set they fail with Unavailable.
func (m *Manager) SetLimiter(l Limiter) {
	m.limiter.mu.Lock()
	defer m.limiter.mu.Unlock()
	m.limiter.l = l
}

func (m *Manager) limiterOf() Limiter {
	m.limiter.mu.RLock()
	defer m.limiter.mu.RUnlock()
	return m.limiter.l
}

// CheckLimit answers a plugin's question about the request member's trial
// limit. The plugin may only ask about names its manifest declares, so a
// tool cannot probe or spend limits that belong to other features.
func (h *hostAPI) CheckLimit(ctx context.Context, req *pluginpb.CheckLimitRequest) (*pluginpb.CheckLimitResponse, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	man, _, _ := h.p.info()
	if man == nil || !slices.Contains(man.Limits, req.Name) {
		return nil, status.Errorf(codes.PermissionDenied, "limit %q is not declared in the plugin's manifest (Manifest.Limits)", req.Name)
	}
	if req.Used < 0 || req.Used > 1<<31-1 {
		return nil, status.Error(codes.InvalidArgument, "used must be between 0 and 2147483647")
	}
	l := h.p.m.limiterOf()
	if l == nil {
		return nil, status.Error(codes.Unavailable, "trial limits are not available")
	}
	a, err := l.CheckPluginLimit(ctx, rc.principal.UserID, req.Name, int(req.Used))
	if core.ErrorCode(err) == core.EINVALID {
		return nil, status.Errorf(codes.FailedPrecondition, "limit %q: %v", req.Name, err)
	}
	if err != nil {
		return nil, internal(err)
	}
	res := &pluginpb.CheckLimitResponse{Allowed: a.Allowed, Limit: int64(a.Limit), Used: int64(a.Used)}
	if !a.Allowed {
		res.Reason = sdk.LimitReason(req.Name, a.Limit)
	}
	return res, nil
}

// LimiterFunc is a function as a Limiter.
type LimiterFunc func(ctx context.Context, userID, name string, used int) (LimitAnswer, error)

// CheckPluginLimit calls f.
func (f LimiterFunc) CheckPluginLimit(ctx context.Context, userID, name string, used int) (LimitAnswer, error) {
	return f(ctx, userID, name, used)
}
