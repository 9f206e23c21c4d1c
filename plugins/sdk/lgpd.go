package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// ExportFile is one file of a member's data export, its name relative to
// the plugin's folder in the ZIP ("pacientes.json", "laudos/123.pdf").
type ExportFile struct {
	Name string
	Data []byte
}

// ExportFiles turns files keyed by name into ExportUser's answer, in name
// order so the same data always makes the same ZIP.
func ExportFiles(byName map[string][]byte) []ExportFile {
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]ExportFile, 0, len(names))
	for _, n := range names {
		out = append(out, ExportFile{Name: n, Data: byName[n]})
	}
	return out
}

// JSONFile is an ExportFile holding v as indented JSON.
func JSONFile(name string, v any) (ExportFile, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ExportFile{}, fmt.Errorf("export %s: %w", name, err)
	}
	return ExportFile{Name: name, Data: b}, nil
}

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
