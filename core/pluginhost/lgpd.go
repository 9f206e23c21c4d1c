package pluginhost

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// lgpdCallFactor is how many ordinary call timeouts an LGPD hook may take
// (it reads or erases all of a member's data at once).
const lgpdCallFactor = 6

// withMember runs fn on every loaded plugin (an idle on-demand plugin is
// started for it) with a request token that acts for userID, so the hook's
// Host API calls (files, profile) are that member's.
func (m *Manager) withMember(ctx context.Context, userID string, fn func(ctx context.Context, id string, c pluginpb.PluginClient, token string) error) error {
	for _, pl := range m.sorted() {
		pl.mu.Lock()
		id := ""
		if pl.manifest != nil {
			id = pl.manifest.Id
		}
		pl.mu.Unlock()
		if id == "" {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, lgpdCallFactor*pl.m.opts.CallTimeout)
		c, done, err := pl.use(cctx)
		if err != nil {
			done()
			cancel()
			return fmt.Errorf("plugin %s unavailable: %w", id, err)
		}
		token := newToken()
		pl.tokens.Store(token, requestContext{principal: core.Principal{UserID: userID, Roles: []string{core.RoleUser}}})
		err = fn(cctx, id, c.PluginClient, token)
		done()
		cancel()
		pl.tokens.Delete(token)
		if err != nil {
			return err
		}
	}
	return nil
}

func unimplemented(err error) bool { return status.Code(err) == codes.Unimplemented }

// ExportUserData is every plugin's LGPD export for userID: each plugin's
// files under <id>/, and sem-exportacao.json naming the plugins without the
// hook (they keep no per-member data, or were built before it existed).
func (m *Manager) ExportUserData(ctx context.Context, userID string) ([]lgpd.File, error) {
	var out []lgpd.File
	without := []string{}
	err := m.withMember(ctx, userID, func(ctx context.Context, id string, c pluginpb.PluginClient, token string) error {
		res, err := c.ExportUser(ctx, &pluginpb.ExportUserRequest{UserId: userID, RequestToken: token})
		if unimplemented(err) || (err == nil && !res.Implemented) {
			without = append(without, id)
			return nil
		}
		if err != nil {
			return fmt.Errorf("plugin %s export: %w", id, err)
		}
		for _, f := range res.Files {
			name := path.Clean("/" + f.Name)[1:]
			if name == "" || strings.HasPrefix(name, "..") {
				continue
			}
			out = append(out, lgpd.File{Name: id + "/" + name, Data: f.Data})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, _ := json.MarshalIndent(map[string]any{
		"ferramentas_sem_exportacao": without,
		"observacao":                 "Estas ferramentas não guardam dados por membro ou ainda não oferecem exportação.",
	}, "", "  ")
	return append(out, lgpd.File{Name: "sem-exportacao.json", Data: b}), nil
}

// DeleteUserData runs every plugin's LGPD deletion hook for userID and
// answers how many plugins erased data. Plugins without the hook keep no
// per-member data of their own; their rows in the core go with the account.
func (m *Manager) DeleteUserData(ctx context.Context, userID string) (int64, error) {
	var n int64
	err := m.withMember(ctx, userID, func(ctx context.Context, id string, c pluginpb.PluginClient, token string) error {
		res, err := c.DeleteUser(ctx, &pluginpb.DeleteUserRequest{UserId: userID, RequestToken: token})
		if unimplemented(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("plugin %s delete: %w", id, err)
		}
		if res.Implemented {
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// The member's keys in the plugins' key-value store.
	tag, err := m.pool.Exec(ctx, `DELETE FROM plugin_kv WHERE key LIKE '%' || $1 || '%'`, userID)
	if err != nil {
		return 0, fmt.Errorf("erase plugin kv: %w", err)
	}
	return n + tag.RowsAffected(), nil
}
