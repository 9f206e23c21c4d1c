package pluginhost

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// FormTool is a running form tool's id and its manifest's ui_schema (its
// forms), for core services that call tools on a member's behalf (the AI
// assistant's calculators).
type FormTool struct {
	ID       string
	Access   string
	UISchema json.RawMessage
}

// FormTools lists the running form tools.
func (m *Manager) FormTools() []FormTool {
	var out []FormTool
	for _, pl := range m.sorted() {
		man, schema, running := pl.info()
		if !running || man.Kind != "tool" || man.UiKind != "form" || len(schema) == 0 {
			continue
		}
		out = append(out, FormTool{ID: man.Id, Access: man.Access, UISchema: schema})
	}
	return out
}

// CallForm posts body (JSON) to action of tool id as principal, exactly as
// POST /api/tools/{id}/{action} would: the plugin validates it as its form
// does. It answers the plugin's status and body.
func (m *Manager) CallForm(ctx context.Context, principal core.Principal, id, action string, body []byte) (int, []byte, error) {
	pl, ok := m.plugin(id)
	if !ok || strings.ContainsAny(action, "/?#") || action == "" {
		return 0, nil, core.Errorf(core.ENOTFOUND, "Ferramenta não encontrada.")
	}
	res, err := pl.Handle(ctx, principal, &pluginpb.HTTPRequest{
		Method: "POST", Path: "/" + action, Body: body, User: userOf(principal),
		Headers: []*pluginpb.Header{{Name: "Content-Type", Values: []string{"application/json"}}},
	})
	if err != nil {
		return 0, nil, err
	}
	return int(res.Status), res.Body, nil
}

// Call sends one request to tool id as principal, exactly as
// METHOD /api/tools/{id}/{path} would reach it (the path checked the same
// way), for core code that acts through a plugin's own API on a member's
// behalf (the development seed). It answers the plugin's status and body.
func (m *Manager) Call(ctx context.Context, principal core.Principal, id, method, path string, body []byte) (int, []byte, error) {
	pl, ok := m.plugin(id)
	path, query, _ := strings.Cut(strings.TrimPrefix(path, "/"), "?")
	clean, valid := pluginPath(path, false)
	if !ok || !valid {
		return 0, nil, core.Errorf(core.ENOTFOUND, "Ferramenta não encontrada.")
	}
	req := &pluginpb.HTTPRequest{Method: method, Path: clean, RawQuery: query, Body: body, User: userOf(principal)}
	if body != nil {
		req.Headers = []*pluginpb.Header{{Name: "Content-Type", Values: []string{"application/json"}}}
	}
	res, err := pl.Handle(ctx, principal, req)
	if err != nil {
		return 0, nil, err
	}
	return int(res.Status), res.Body, nil
}
