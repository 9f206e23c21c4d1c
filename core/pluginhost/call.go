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
