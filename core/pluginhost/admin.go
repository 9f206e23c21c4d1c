package pluginhost

import (
	"log/slog"
	"net/http"
	"sort"

	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/pluginhost/confine"
)

// AdminPlugin is one row of GET /api/admin/plugins: a loaded plugin with
// the confinement its process runs under, or a refused one with why.
type AdminPlugin struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Kind        string          `json:"kind"`
	Running     bool            `json:"running"`
	Refused     string          `json:"refused,omitempty"`
	Confinement *confine.Status `json:"confinement,omitempty"`
	// Process is the plugin's process: state (running, idle, starting,
	// restarting, failed, stopped), pid, resident memory, last call and
	// last on-demand cold start.
	Process *Lifecycle `json:"process,omitempty"`
}

// AdminList returns every loaded plugin, then every refused one, by id.
func (m *Manager) AdminList() []AdminPlugin {
	out := []AdminPlugin{}
	for _, p := range m.sorted() {
		man, _, running := p.info()
		st := p.status()
		if st.Missing == nil {
			st.Missing = []string{}
		}
		life := p.lifecycle()
		row := AdminPlugin{ID: man.Id, Name: man.Name, Version: man.Version, Kind: man.Kind,
			Running: running && life.State == StateRunning, Confinement: &st, Process: &life}
		if life.StartedAt == nil {
			row.Confinement = nil // never ran here: known from its cached description only
		}
		out = append(out, row)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	refused := m.Refused()
	names := make([]string, 0, len(refused))
	for name := range refused {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, AdminPlugin{ID: name, Name: name, Refused: refused[name]})
	}
	return out
}

// HandleAdminList serves GET /api/admin/plugins (super admins): what the
// backoffice's plugins page shows.
func HandleAdminList(log *slog.Logger, m *Manager) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, m.AdminList())
	})
}
