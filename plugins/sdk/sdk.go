// Package sdk is what a VetClube plugin imports. A plugin is a main package
// that calls Serve with its Tool: a manifest, an http.Handler built on top of
// the host API, and optional hooks. The core starts the executable with
// hashicorp/go-plugin over gRPC; everything crossing the process boundary is
// defined in plugins/proto.
//
//	func main() {
//		sdk.Serve(sdk.Tool{
//			Manifest: sdk.Manifest{ID: "minha-ferramenta", ...},
//			Handler:  func(host *sdk.Host) http.Handler { return mux },
//		})
//	}
package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
)

// Version is the SDK's version, reported to the host at handshake.
const Version = "1.0.0"

// Handshake is shared by the host and every plugin; a binary started without
// it (for example by hand) refuses to run. ProtocolVersion changes only on a
// breaking wire change, which the additive proto rules avoid.
const (
	HandshakeProtocolVersion = 1
	HandshakeCookieKey       = "VETCLUBE_PLUGIN"
	HandshakeCookieValue     = "f1b9d1c2-ferramentas"
	// PluginName is the go-plugin dispense name of the tool service.
	PluginName = "tool"
)

// Kinds, access levels and UI kinds a manifest may declare.
const (
	KindTool      = "tool"
	KindContent   = "content"
	AccessUser    = "user"
	AccessPremium = "premium"
	UIForm        = "form"
	UICustom      = "custom"
)

// Manifest describes a plugin to the core and, through GET /api/tools, to the
// web app. Texts a user reads are pt-BR.
type Manifest struct {
	ID             string // lowercase letters, digits and dashes; also the binary's name
	Name           string
	Description    string
	Version        string // semantic version of the plugin
	MinCoreVersion string // the host refuses to load the plugin on an older core
	Kind           string // KindTool or KindContent
	Icon           string // icon name known to the web app (lucide names)
	Category       string
	Slug           string // the page is /ferramentas/<slug>
	Access         string // AccessUser or AccessPremium
	UIKind         string // UIForm (rendered from Forms) or UICustom (web/src/plugins/<id>/)
	Forms          []Form // for UIForm
}

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// Validate reports the first problem with m, in English for the developer.
func (m Manifest) Validate() error {
	switch {
	case !idPattern.MatchString(m.ID):
		return fmt.Errorf("manifest: id %q must be lowercase words joined by dashes", m.ID)
	case m.Name == "" || m.Description == "":
		return fmt.Errorf("manifest %s: name and description are required", m.ID)
	case m.Version == "" || m.MinCoreVersion == "":
		return fmt.Errorf("manifest %s: version and min_core_version are required", m.ID)
	case m.Kind != KindTool && m.Kind != KindContent:
		return fmt.Errorf("manifest %s: kind must be %q or %q", m.ID, KindTool, KindContent)
	case m.Access != AccessUser && m.Access != AccessPremium:
		return fmt.Errorf("manifest %s: access must be %q or %q", m.ID, AccessUser, AccessPremium)
	case m.UIKind != UIForm && m.UIKind != UICustom:
		return fmt.Errorf("manifest %s: ui kind must be %q or %q", m.ID, UIForm, UICustom)
	case !idPattern.MatchString(m.Slug):
		return fmt.Errorf("manifest %s: slug %q must be lowercase words joined by dashes", m.ID, m.Slug)
	case m.UIKind == UIForm && len(m.Forms) == 0:
		return fmt.Errorf("manifest %s: a form tool needs at least one form", m.ID)
	}
	return nil
}

// Migration is one step of the plugin's own PostgreSQL schema. The host runs
// each version once, in order, with search_path set to the plugin's schema,
// and records it in plugin_migrations.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Tool is everything a plugin hands to Serve.
type Tool struct {
	Manifest   Manifest
	Migrations []Migration
	// Handler builds the plugin's HTTP API once the host API is reachable.
	// Requests arrive with paths relative to /api/tools/<id>.
	Handler func(host *Host) http.Handler
	// Health, when set, is called by the periodic health check.
	Health func(ctx context.Context) error
	// DashboardCard is hook 1 (SDK 1.0); nil means not implemented.
	DashboardCard func(ctx context.Context, host *Host, user User) (*Card, error)
}

// Card is a home-dashboard card returned by the DashboardCard hook.
type Card struct {
	Title, Body, Link string
}

// User is the signed-in user a request is made for.
type User struct {
	ID    string
	Roles []string
	// Subscription is "premium", "trial" or "none".
	Subscription string
}

type userKey struct{}
type tokenKey struct{}

// UserFrom returns the user of the request whose context is ctx.
func UserFrom(ctx context.Context) User {
	u, _ := ctx.Value(userKey{}).(User)
	return u
}

func withUser(ctx context.Context, u User, token string) context.Context {
	ctx = context.WithValue(ctx, userKey{}, u)
	return context.WithValue(ctx, tokenKey{}, token)
}

func requestToken(ctx context.Context) string {
	t, _ := ctx.Value(tokenKey{}).(string)
	return t
}

// WriteJSON answers v as JSON with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteError answers the core's error shape, so the web app shows message
// (pt-BR) and the per-field messages beside their inputs.
func WriteError(w http.ResponseWriter, status int, message string, fields map[string]string) {
	code := "invalid"
	switch status {
	case http.StatusNotFound:
		code = "not_found"
	case http.StatusForbidden:
		code = "forbidden"
	case http.StatusConflict:
		code = "conflict"
	case http.StatusInternalServerError:
		code = "internal"
	}
	WriteJSON(w, status, map[string]any{"error": map[string]any{"code": code, "message": message, "fields": fields}})
}

// DecodeJSON reads r's JSON body into v; on failure it answers a pt-BR error
// and returns false.
func DecodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	if err := dec.Decode(v); err != nil {
		WriteError(w, http.StatusUnprocessableEntity, "JSON inválido no corpo da requisição.", nil)
		return false
	}
	return true
}

func jsonMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return b, nil
}
