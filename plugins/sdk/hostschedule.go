//go:build !js

package sdk

import (
	"context"
	"fmt"
	"time"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// ScheduleNotification asks the core to notify the request's member at a
// future moment (a vaccine's due day, say): title and message, and link an
// in-app path the notification opens. The core stores it and delivers it
// once when due through the notifications service, so the member's
// preferences, quiet hours and push apply, even if the plugin is stopped
// or the core restarted meanwhile. key names it within this plugin and
// member: scheduling the same key again replaces the moment and text
// (replaced reports it), CancelScheduledNotification drops it.
func (h *Host) ScheduleNotification(ctx context.Context, key string, at time.Time, title, message, link string) (replaced bool, err error) {
	res, err := h.c.ScheduleNotification(ctx, &pluginpb.ScheduleNotificationRequest{
		RequestToken: requestToken(ctx), Key: key, AtUnix: at.Unix(), Title: title, Body: message, Link: link,
	})
	if err != nil {
		return false, fmt.Errorf("host: schedule notification %q: %w", key, err)
	}
	return res.Replaced, nil
}

// CancelScheduledNotification drops the request member's pending
// notification key of this plugin; cancelling one that is absent or
// already delivered is not an error. canceled counts what was dropped.
func (h *Host) CancelScheduledNotification(ctx context.Context, key string) (canceled int, err error) {
	return h.cancelScheduled(ctx, key, false)
}

// CancelScheduledNotifications drops every pending notification of the
// request member in this plugin whose key starts with prefix ("" drops them
// all: a DeleteUser hook does that).
func (h *Host) CancelScheduledNotifications(ctx context.Context, prefix string) (canceled int, err error) {
	return h.cancelScheduled(ctx, prefix, true)
}

func (h *Host) cancelScheduled(ctx context.Context, key string, prefix bool) (int, error) {
	res, err := h.c.CancelScheduledNotification(ctx, &pluginpb.CancelScheduledNotificationRequest{
		RequestToken: requestToken(ctx), Key: key, Prefix: prefix,
	})
	if err != nil {
		return 0, fmt.Errorf("host: cancel scheduled notification %q: %w", key, err)
	}
	return int(res.Canceled), nil
}
