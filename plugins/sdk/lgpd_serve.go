//go:build !js

package sdk

import (
	"context"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// The LGPD hooks as the core calls them over gRPC.

func (s *server) ExportUser(ctx context.Context, req *pluginpb.ExportUserRequest) (*pluginpb.ExportUserResponse, error) {
	host, _ := s.current()
	if s.tool.ExportUser == nil || host == nil {
		return &pluginpb.ExportUserResponse{}, nil
	}
	files, err := s.tool.ExportUser(withUser(ctx, User{ID: req.UserId}, req.RequestToken), host, req.UserId)
	if err != nil {
		return nil, err
	}
	res := &pluginpb.ExportUserResponse{Implemented: true}
	for _, f := range files {
		res.Files = append(res.Files, &pluginpb.ExportFile{Name: f.Name, Data: f.Data})
	}
	return res, nil
}

func (s *server) DeleteUser(ctx context.Context, req *pluginpb.DeleteUserRequest) (*pluginpb.DeleteUserResponse, error) {
	host, _ := s.current()
	if s.tool.DeleteUser == nil || host == nil {
		return &pluginpb.DeleteUserResponse{}, nil
	}
	if err := s.tool.DeleteUser(withUser(ctx, User{ID: req.UserId}, req.RequestToken), host, req.UserId); err != nil {
		return nil, err
	}
	return &pluginpb.DeleteUserResponse{Implemented: true}, nil
}
