package sdktest

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// SetLimit sets the trial limit name (as TRIAL_LIMITS would) and declares
// it: CheckLimit on a name never set answers PermissionDenied, as the core
// does for a name missing from Manifest.Limits. n < 0 means unlimited.
func (h *Host) SetLimit(name string, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.limits[name] = n
}

// SetPremium makes every member Premium (unlimited) or not. A request made
// for a user whose Subscription is "premium" is Premium either way.
func (h *Host) SetPremium(premium bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.premium = premium
}

// LimitChecks returns every CheckLimit the plugin made, in order.
func (h *Host) LimitChecks() []sdk.Limit {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]sdk.Limit(nil), h.limitChecks...)
}

func (c *client) CheckLimit(_ context.Context, req *pluginpb.CheckLimitRequest, _ ...grpc.CallOption) (*pluginpb.CheckLimitResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("CheckLimit"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	limit, declared := h.limits[req.Name]
	if !declared {
		return nil, errorf(codes.PermissionDenied, "limit %q is not declared in the manifest's Limits (in tests: sdktest.Host.SetLimit)", req.Name)
	}
	if req.Used < 0 {
		return nil, errorf(codes.InvalidArgument, "used must not be negative")
	}
	res := &pluginpb.CheckLimitResponse{Used: req.Used, Limit: int64(limit)}
	switch {
	case h.premium || u.Subscription == "premium" || limit < 0:
		res.Allowed, res.Limit = true, sdk.Unlimited
	case req.Used < int64(limit):
		res.Allowed = true
	default:
		res.Reason = sdk.LimitReason(req.Name, limit)
	}
	h.limitChecks = append(h.limitChecks, sdk.Limit{Name: req.Name, Allowed: res.Allowed, Limit: int(res.Limit), Used: int(res.Used), Reason: res.Reason})
	return res, nil
}

type storedFile struct {
	user string
	file sdk.File
}

// AddFile stores f as userID's upload to this plugin, as POST
// /api/tools/<id>/files would, and returns its id (f.ID when set). Size is
// filled from Data when zero.
func (h *Host) AddFile(userID string, f sdk.File) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if f.ID == "" {
		h.fileSeq++
		f.ID = fmt.Sprintf("file-%d", h.fileSeq)
	}
	if f.Size == 0 {
		f.Size = int64(len(f.Data))
	}
	f.Data = append([]byte(nil), f.Data...)
	h.files[f.ID] = storedFile{user: userID, file: f}
	return f.ID
}

// HasFile reports whether the file id is still stored (not deleted).
func (h *Host) HasFile(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.files[id]
	return ok
}

func (c *client) GetFile(_ context.Context, req *pluginpb.GetFileRequest, _ ...grpc.CallOption) (*pluginpb.GetFileResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("GetFile"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	s, ok := h.files[req.FileId]
	if !ok || s.user != u.ID {
		return nil, errorf(codes.NotFound, "file not found")
	}
	f := s.file
	return &pluginpb.GetFileResponse{Id: f.ID, Kind: f.Kind, ContentType: f.ContentType, Name: f.Name, Size: f.Size, Data: append([]byte(nil), f.Data...)}, nil
}

func (c *client) DeleteFile(_ context.Context, req *pluginpb.DeleteFileRequest, _ ...grpc.CallOption) (*pluginpb.DeleteFileResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("DeleteFile"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	s, ok := h.files[req.FileId]
	if !ok || s.user != u.ID {
		return &pluginpb.DeleteFileResponse{}, nil
	}
	delete(h.files, req.FileId)
	return &pluginpb.DeleteFileResponse{Deleted: true}, nil
}
