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
//
// A form tool declares its fields once, in the manifest's Forms, and reads
// each submission with ReadForm, which checks them with pt-BR messages. A
// plugin's own tests call its handler with package sdktest's fake host; the
// SDK imports nothing of the core.
package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"unicode"
)

// Version is the SDK's version, reported to the host at handshake.
const Version = "1.1.0"

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
	UIKind         string // UIForm (rendered from Forms) or UICustom (plugins/<id>/web/View.tsx)
	Forms          []Form // for UIForm
	// ContentTypes are the types a KindContent plugin declares; a tool may
	// declare types too (the items it works on, edited in the backoffice).
	ContentTypes []ContentType
	// Limits are the trial limits (TRIAL_LIMITS names such as "patients",
	// "simulados") the plugin checks with Host.CheckLimit; the host refuses
	// any other name.
	Limits []string
	// Pages are further entries of a tool in /ferramentas, each with its
	// own slug, served by this plugin and its view (which reads the slug).
	Pages []ToolPage
}

// ToolPage is one further entry of a tool in /ferramentas.
type ToolPage struct {
	Slug        string // the page is /ferramentas/<slug>
	Name        string // pt-BR
	Description string // pt-BR
	Icon        string // as Manifest.Icon; empty: the tool's
}

// IDPattern is what a plugin id (and a slug) looks like: lowercase words of
// letters and digits joined by single dashes, starting with a letter. Ids
// become PostgreSQL schema and role names and the binary's file name, so
// they never hold '_' or other characters that need quoting.
const IDPattern = `^[a-z][a-z0-9]*(-[a-z0-9]+)*$`

// Length limits of a plugin id, which must fit in a PostgreSQL identifier
// with the host's prefixes.
const (
	MinIDLength = 2
	MaxIDLength = 40
)

var idPattern = regexp.MustCompile(IDPattern)

// ValidID reports whether id is an acceptable plugin id.
func ValidID(id string) bool {
	return len(id) >= MinIDLength && len(id) <= MaxIDLength && idPattern.MatchString(id)
}

// Validate reports the first problem with m, in English for the developer.
func (m Manifest) Validate() error {
	switch {
	case !ValidID(m.ID):
		return fmt.Errorf("manifest: id %q must be %d to %d characters of lowercase words joined by dashes", m.ID, MinIDLength, MaxIDLength)
	case m.Name == "" || m.Description == "":
		return fmt.Errorf("manifest %s: name and description are required", m.ID)
	case m.Version == "" || m.MinCoreVersion == "":
		return fmt.Errorf("manifest %s: version and min_core_version are required", m.ID)
	case m.Kind != KindTool && m.Kind != KindContent:
		return fmt.Errorf("manifest %s: kind must be %q or %q", m.ID, KindTool, KindContent)
	case m.Kind == KindContent:
		// A content plugin has no page or form of its own: readers reach its
		// types through their routes.
		if err := validateContentTypes(m); err != nil {
			return err
		}
		return nil
	case m.Access != AccessUser && m.Access != AccessPremium:
		return fmt.Errorf("manifest %s: access must be %q or %q", m.ID, AccessUser, AccessPremium)
	case m.UIKind != UIForm && m.UIKind != UICustom:
		return fmt.Errorf("manifest %s: ui kind must be %q or %q", m.ID, UIForm, UICustom)
	case !idPattern.MatchString(m.Slug):
		return fmt.Errorf("manifest %s: slug %q must be lowercase words joined by dashes", m.ID, m.Slug)
	case m.UIKind == UIForm && len(m.Forms) == 0:
		return fmt.Errorf("manifest %s: a form tool needs at least one form", m.ID)
	}
	// A tool may also declare the content types its editors maintain in
	// the backoffice (a reference the tool serves, say).
	if err := validateContentTypes(m); err != nil {
		return err
	}
	for _, name := range m.Limits {
		if !ValidLimitName(name) {
			return fmt.Errorf("manifest %s: limit %q must be lowercase letters, digits and underscores", m.ID, name)
		}
	}
	seen := map[string]bool{m.Slug: true}
	for _, p := range m.Pages {
		if !idPattern.MatchString(p.Slug) || p.Name == "" || p.Description == "" {
			return fmt.Errorf("manifest %s: page %q needs a slug of lowercase words joined by dashes, a name and a description", m.ID, p.Slug)
		}
		if seen[p.Slug] {
			return fmt.Errorf("manifest %s: slug %q is used twice", m.ID, p.Slug)
		}
		seen[p.Slug] = true
	}
	for _, f := range m.Forms {
		for _, field := range f.Fields {
			if _, ok := parseNoun(field.Noun); field.Noun != "" && !ok {
				return fmt.Errorf("manifest %s: form %s: field %s: noun %q must start with its article (o, a, os, as)", m.ID, f.ID, field.Name, field.Noun)
			}
		}
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
	// Content holds a content plugin's write hooks (SDK 1.1).
	Content ContentHooks
	// Prompts holds the plugin's AI prompt templates (*.tmpl at its root,
	// usually an embedded prompts folder) that Host.AI.Generate names.
	Prompts fs.FS
	// ExportUser is the LGPD export hook: every file of userID's data the
	// plugin keeps (JSON, PDF, pictures), for the member's ZIP. nil: the
	// plugin keeps no per-member data and is listed as exporting nothing.
	ExportUser func(ctx context.Context, host *Host, userID string) ([]ExportFile, error)
	// DeleteUser is the LGPD deletion hook: erase every row and file of
	// userID's data the plugin keeps. It must be idempotent.
	DeleteUser func(ctx context.Context, host *Host, userID string) error
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

// encodeFailure is the body answered when a plugin's answer cannot be
// encoded; it is a constant so that writing it can never fail in turn.
const encodeFailure = `{"error":{"code":"internal","message":"A ferramenta não conseguiu montar a resposta. Tente novamente."}}` + "\n"

// WriteJSON answers v as JSON with status. v is encoded before anything is
// written: a value JSON cannot carry (an infinite or NaN number, a channel)
// becomes a 500 with the error shape, never a 200 with an empty body.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, encodeFailure)
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// WriteError answers the core's error shape, so the web app shows message
// (pt-BR) and the per-field messages beside their inputs. The code follows
// the status with the core's own codes, so a client can tell "sign in again"
// (401), "wait and retry" (429) and "the service is down" (503) apart.
func WriteError(w http.ResponseWriter, status int, message string, fields map[string]string) {
	WriteJSON(w, status, map[string]any{"error": map[string]any{"code": ErrorCode(status), "message": message, "fields": fields}})
}

// ErrorCode is the core's machine code for an HTTP error status.
func ErrorCode(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return "invalid"
	case http.StatusUnauthorized:
		return "unauthorized"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusNotFound:
		return "not_found"
	case http.StatusMethodNotAllowed:
		return "method_not_allowed"
	case http.StatusConflict:
		return "conflict"
	case http.StatusRequestEntityTooLarge:
		return "too_large"
	case http.StatusLocked:
		return "locked"
	case http.StatusTooManyRequests:
		return "rate_limited"
	case http.StatusServiceUnavailable:
		return "unavailable"
	}
	if status >= 500 {
		return "internal"
	}
	return "invalid"
}

// maxBody is the largest JSON body a plugin reads.
const maxBody = 1 << 20

// DecodeJSON reads r's JSON body into v; on failure it answers a pt-BR error
// and returns false. Text carrying control characters (NUL and the other
// C0/C1 codes except tab and line breaks) is refused here, for every plugin:
// nothing a person types contains them, and PostgreSQL cannot store NUL.
func DecodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			WriteError(w, http.StatusRequestEntityTooLarge, "O corpo da requisição é grande demais (máximo de 1 MB).", nil)
			return false
		}
		WriteError(w, http.StatusUnprocessableEntity, "Não foi possível ler o corpo da requisição.", nil)
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		WriteError(w, http.StatusUnprocessableEntity, "JSON inválido no corpo da requisição.", nil)
		return false
	}
	if field, found := controlCharacterField(data); found {
		if field == "" {
			WriteError(w, http.StatusUnprocessableEntity, "O texto enviado contém caracteres de controle não permitidos.", nil)
		} else {
			WriteError(w, http.StatusUnprocessableEntity, "Verifique os campos destacados.",
				map[string]string{field: "Este campo contém caracteres de controle não permitidos."})
		}
		return false
	}
	return true
}

// controlCharacterField reports whether any string (key or value) in the
// valid JSON document data holds a forbidden control character, and the
// field it belongs to: the nearest enclosing object key, so an item of a
// list is reported under the list's name ("strengths", not "strengths[3]").
func controlCharacterField(data []byte) (field string, found bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object    bool
		expectKey bool
		key       string
	}
	var stack []frame
	owner := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].object && stack[i].key != "" {
				return stack[i].key
			}
		}
		return ""
	}
	// afterValue flips an object back to expecting a key once its value ended.
	afterValue := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].expectKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false // io.EOF: data was already decoded successfully
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{object: true, expectKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
				afterValue()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
				if HasControlCharacter(t) {
					return "", true // a bad key names no field the user can fix
				}
				stack[n-1].key = t
				stack[n-1].expectKey = false
				continue
			}
			if HasControlCharacter(t) {
				return owner(), true
			}
			afterValue()
		default:
			afterValue()
		}
	}
}

// HasControlCharacter reports whether s holds a control character other than
// tab, line feed and carriage return (which multi-line text may carry).
func HasControlCharacter(s string) bool {
	for _, c := range s {
		if c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if unicode.IsControl(c) {
			return true
		}
	}
	return false
}

func jsonMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return b, nil
}
