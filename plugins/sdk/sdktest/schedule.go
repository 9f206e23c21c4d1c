package sdktest

import (
	"context"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// Scheduled is one notification the plugin scheduled (ScheduleNotification)
// and the fake host has not delivered yet.
type Scheduled struct {
	UserID, Key         string
	At                  time.Time
	Title, Body, Link   string
	Delivered, Canceled bool
}

// Scheduled returns the pending scheduled notifications (not delivered,
// not cancelled), soonest first.
func (h *Host) Scheduled() []Scheduled {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Scheduled
	for _, s := range h.scheduled {
		if !s.Delivered && !s.Canceled {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// DeliverDue delivers, as the core's timer would, every pending scheduled
// notification whose moment is at or before Clock.Now(): each becomes one
// Notification (idempotency key "scheduled:<user>:<key>:<unix>") and is not
// delivered again. It returns how many it delivered.
func (h *Host) DeliverDue() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	now := h.Clock.Now()
	for _, s := range h.scheduled {
		if s.Delivered || s.Canceled || s.At.After(now) {
			continue
		}
		key := "scheduled:" + s.UserID + ":" + s.Key + ":" + s.At.UTC().Format(time.RFC3339)
		if _, seen := h.notifKeys[key]; !seen {
			nt := Notification{UserID: s.UserID, Title: s.Title, Body: s.Body, IdempotencyKey: key, At: now}
			h.notifications = append(h.notifications, nt)
			h.notifKeys[key] = nt
		}
		s.Delivered = true
		n++
	}
	return n
}

func (c *client) ScheduleNotification(_ context.Context, req *pluginpb.ScheduleNotificationRequest, _ ...grpc.CallOption) (*pluginpb.ScheduleNotificationResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("ScheduleNotification"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if err := sdk.CheckScheduledNotification(req.Key, req.Title, req.Body, req.Link); err != nil {
		return nil, errorf(codes.InvalidArgument, "%v", err)
	}
	at := time.Unix(req.AtUnix, 0).UTC()
	now := h.Clock.Now()
	if !at.After(now) || at.Sub(now) > sdk.ScheduleHorizonMax {
		return nil, errorf(codes.InvalidArgument, "at must be in the future and within 5 years")
	}
	if h.scheduled == nil {
		h.scheduled = map[string]*Scheduled{}
	}
	id := u.ID + "\x00" + req.Key
	prev, replaced := h.scheduled[id]
	replaced = replaced && !prev.Delivered && !prev.Canceled
	h.scheduled[id] = &Scheduled{UserID: u.ID, Key: req.Key, At: at, Title: req.Title, Body: req.Body, Link: req.Link}
	return &pluginpb.ScheduleNotificationResponse{Id: id, Replaced: replaced}, nil
}

func (c *client) CancelScheduledNotification(_ context.Context, req *pluginpb.CancelScheduledNotificationRequest, _ ...grpc.CallOption) (*pluginpb.CancelScheduledNotificationResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("CancelScheduledNotification"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	if req.Prefix {
		err = sdk.CheckScheduleKeyPrefix(req.Key)
	} else if req.Key == "" {
		err = errorfPlain("key is required")
	}
	if err != nil {
		return nil, errorf(codes.InvalidArgument, "%v", err)
	}
	var n int64
	for _, s := range h.scheduled {
		if s.UserID != u.ID || s.Delivered || s.Canceled {
			continue
		}
		if (req.Prefix && strings.HasPrefix(s.Key, req.Key)) || (!req.Prefix && s.Key == req.Key) {
			s.Canceled = true
			n++
		}
	}
	return &pluginpb.CancelScheduledNotificationResponse{Canceled: n}, nil
}

type plainError string

func (e plainError) Error() string { return string(e) }

func errorfPlain(s string) error { return plainError(s) }
