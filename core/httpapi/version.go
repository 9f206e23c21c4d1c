package httpapi

import (
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// buildInfo is what the running binary says of itself: the VCS revision and
// time Go stamped into it, the Go version, and when this process started.
type buildInfo struct {
	Revision  string    `json:"revision"`
	BuiltAt   string    `json:"built_at"`
	Modified  bool      `json:"modified"`
	GoVersion string    `json:"go_version,omitempty"`
	StartedAt time.Time `json:"started_at"`
}

var (
	startedAt = time.Now()
	buildOnce sync.Once
	build     buildInfo
)

func readBuild() buildInfo {
	buildOnce.Do(func() {
		build = buildInfo{Revision: "dev", StartedAt: startedAt, GoVersion: runtime.Version()}
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					build.Revision = s.Value
				case "vcs.time":
					build.BuiltAt = s.Value
				case "vcs.modified":
					build.Modified = s.Value == "true"
				}
			}
		}
	})
	return build
}

// handleVersion serves GET /api/version: the build for the debug page; the
// Go version only to super admins.
func handleVersion() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := readBuild()
		if !core.PrincipalFrom(r.Context()).HasRole(core.RoleSuperAdmin) {
			b.GoVersion = ""
		}
		_ = httpx.Encode(w, http.StatusOK, b)
	})
}
