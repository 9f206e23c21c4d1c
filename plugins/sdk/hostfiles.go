//go:build !js

package sdk

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// maxFileMessage is the largest answer GetFile may bring: a 10 MB upload
// and its envelope (gRPC's default is 4 MB).
const maxFileMessage = 12 << 20

// File returns the request member's upload fileID to this plugin, with its
// bytes. Anything else (another member's file, another plugin's, an unknown
// or deleted id) is ErrNotFound (errors.Is).
func (h *Host) File(ctx context.Context, fileID string) (File, error) {
	res, err := h.c.GetFile(ctx, &pluginpb.GetFileRequest{RequestToken: requestToken(ctx), FileId: fileID}, grpc.MaxCallRecvMsgSize(maxFileMessage))
	if status.Code(err) == codes.NotFound {
		return File{}, fmt.Errorf("host: file %q: %w", fileID, ErrNotFound)
	}
	if err != nil {
		return File{}, fmt.Errorf("host: file %q: %w", fileID, err)
	}
	return File{ID: res.Id, Kind: res.Kind, ContentType: res.ContentType, Name: res.Name, Size: res.Size, Data: res.Data}, nil
}

// DeleteFile removes the request member's upload fileID to this plugin. It
// reports whether there was such a file; deleting an absent one (or someone
// else's) deletes nothing and is not an error.
func (h *Host) DeleteFile(ctx context.Context, fileID string) (bool, error) {
	res, err := h.c.DeleteFile(ctx, &pluginpb.DeleteFileRequest{RequestToken: requestToken(ctx), FileId: fileID})
	if err != nil {
		return false, fmt.Errorf("host: delete file %q: %w", fileID, err)
	}
	return res.Deleted, nil
}
