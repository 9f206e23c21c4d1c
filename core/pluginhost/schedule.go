package pluginhost

import (
	"context"
	"errors"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core/toolschedule"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// ScheduledNotifications is the part of toolschedule.Service the host API
// uses: a plugin schedules and cancels only its own keys, for the member of
// the request it serves.
type ScheduledNotifications interface {
	Schedule(ctx context.Context, pluginID, userID, key string, at time.Time, title, body, link string) (id string, replaced bool, err error)
	Cancel(ctx context.Context, pluginID, userID, key string, prefix bool) (int64, error)
}

// ScheduleNotification stores a notification for the request's member at a
// future moment (at most 5 years ahead); the core delivers it when due.
func (h *hostAPI) ScheduleNotification(ctx context.Context, req *pluginpb.ScheduleNotificationRequest) (*pluginpb.ScheduleNotificationResponse, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if err := sdk.CheckScheduledNotification(req.Key, req.Title, req.Body, req.Link); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	at := time.Unix(req.AtUnix, 0).UTC()
	now := h.p.m.opts.Now()
	if !at.After(now) || at.Sub(now) > sdk.ScheduleHorizonMax {
		return nil, status.Error(codes.InvalidArgument, "at must be in the future and within 5 years")
	}
	s := h.p.m.opts.Scheduled
	if s == nil {
		return nil, status.Error(codes.Unavailable, "scheduled notifications are not available")
	}
	id, replaced, err := s.Schedule(ctx, h.id(), rc.principal.UserID, req.Key, at,
		strings.TrimSpace(req.Title), strings.TrimSpace(req.Body), req.Link)
	if errors.Is(err, toolschedule.ErrTooMany) {
		return nil, status.Errorf(codes.ResourceExhausted, "at most %d pending scheduled notifications per member", toolschedule.MaxPendingPerTool)
	}
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.ScheduleNotificationResponse{Id: id, Replaced: replaced}, nil
}

// CancelScheduledNotification drops the request member's pending
// notification(s) of this plugin.
func (h *hostAPI) CancelScheduledNotification(ctx context.Context, req *pluginpb.CancelScheduledNotificationRequest) (*pluginpb.CancelScheduledNotificationResponse, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if req.Prefix {
		err = sdk.CheckScheduleKeyPrefix(req.Key)
	} else if req.Key == "" {
		err = errors.New("key is required")
	}
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	s := h.p.m.opts.Scheduled
	if s == nil {
		return nil, status.Error(codes.Unavailable, "scheduled notifications are not available")
	}
	n, err := s.Cancel(ctx, h.id(), rc.principal.UserID, req.Key, req.Prefix)
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.CancelScheduledNotificationResponse{Canceled: n}, nil
}
