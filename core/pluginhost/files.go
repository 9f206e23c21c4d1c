package pluginhost

import (
	"context"
	"net/http"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/authz"
	"github.com/vetclube/vetclube/core/toolfiles"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// ToolFiles is the part of toolfiles.Service the host API uses: a file is
// always looked up by plugin and member together.
type ToolFiles interface {
	Read(ctx context.Context, pluginID, userID, id string) (toolfiles.File, []byte, error)
	Delete(ctx context.Context, pluginID, userID, id string) (bool, error)
}

// GetFile answers the request member's upload to this plugin; another
// member's, another plugin's or an unknown id is NotFound alike.
func (h *hostAPI) GetFile(ctx context.Context, req *pluginpb.GetFileRequest) (*pluginpb.GetFileResponse, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	files := h.p.m.opts.Files
	if files == nil {
		return nil, status.Error(codes.Unavailable, "tool files are not available")
	}
	f, data, err := files.Read(ctx, h.id(), rc.principal.UserID, strings.TrimSpace(req.FileId))
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil, status.Error(codes.NotFound, "file not found")
	}
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.GetFileResponse{Id: f.ID, Kind: f.Kind, ContentType: f.ContentType, Name: f.Name, Size: f.Size, Data: data}, nil
}

// DeleteFile removes the request member's upload to this plugin.
func (h *hostAPI) DeleteFile(ctx context.Context, req *pluginpb.DeleteFileRequest) (*pluginpb.DeleteFileResponse, error) {
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	files := h.p.m.opts.Files
	if files == nil {
		return nil, status.Error(codes.Unavailable, "tool files are not available")
	}
	deleted, err := files.Delete(ctx, h.id(), rc.principal.UserID, strings.TrimSpace(req.FileId))
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.DeleteFileResponse{Deleted: deleted}, nil
}

// FilesGate is the toolfiles.Gate of the tools: the plugin is a loaded tool
// (else 404) the member may use (else the Premium refusal), as for calls.
func FilesGate(m *Manager, az *authz.Authorizer) toolfiles.Gate {
	return func(r *http.Request, id string) error {
		pl, ok := m.plugin(id)
		if !ok {
			return core.Errorf(core.ENOTFOUND, msgNotFound)
		}
		man, _, _ := pl.info()
		if man == nil || man.Kind != "tool" {
			return core.Errorf(core.ENOTFOUND, msgNotFound)
		}
		if !az.Allowed(core.PrincipalFrom(r.Context()).Roles, capability(man.Access), "use") {
			return core.Errorf(core.EFORBIDDEN, msgPremiumOnly)
		}
		return nil
	}
}
