package pluginhost

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/authz"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// Messages a user reads when a tool cannot answer.
const (
	msgNotFound    = "Ferramenta não encontrada."
	msgPremiumOnly = "Esta ferramenta é exclusiva para assinantes Premium. Assine o VetClube Premium para usá-la."
	msgUnavailable = "A ferramenta está temporariamente indisponível. Tente novamente em instantes."
	msgTimeout     = "A ferramenta demorou demais para responder. Tente novamente."
	msgBadPath     = "Endereço inválido."
	msgTooLarge    = "A requisição é grande demais."
	msgNoRoute     = "Recurso não encontrado."
	msgNoMethod    = "Método não permitido."
	msgRefused     = "A ferramenta não aceitou a requisição."
)

// headersFromPlugin are the only response headers a plugin may set: how
// to read and cache its answer. Cookies, redirects, security policies, CORS
// and framing stay the core's to decide.
var headersFromPlugin = map[string]bool{
	"Content-Type": true, "Cache-Control": true, "Etag": true, "Last-Modified": true,
	"Expires": true, "Content-Language": true, "Vary": true, "Allow": true,
	"Content-Disposition": true, // rebuilt by attachmentDisposition
}

// attachmentDisposition rebuilds a plugin's Content-Disposition as a
// download: only "attachment" is kept (an inline answer would be shown on
// the app's origin), with its filename reduced to ASCII letters, digits,
// '.', '-' and '_' (at most 100 characters, never starting with a dot).
// Anything it cannot read answers "" and the header is dropped.
func attachmentDisposition(v string) string {
	disp, params, err := mime.ParseMediaType(v)
	if err != nil || disp != "attachment" {
		return ""
	}
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '-'
	}, params["filename"])
	name = strings.TrimLeft(name, ".-")
	if len(name) > 100 {
		name = name[len(name)-100:]
	}
	if name == "" {
		return "attachment"
	}
	return `attachment; filename="` + name + `"`
}

// activeTypes are content types a browser would run as a page or script on
// the app's origin; a plugin answering with one is served as plain text.
var activeTypes = []string{"text/html", "application/xhtml", "image/svg", "javascript", "text/xml", "application/xml", "multipart/"}

func copyPluginHeaders(dst http.Header, src []*pluginpb.Header) {
	for _, h := range src {
		name := http.CanonicalHeaderKey(h.Name)
		if !headersFromPlugin[name] {
			continue
		}
		for _, v := range h.Values {
			if strings.ContainsAny(v, "\r\n\x00") {
				continue
			}
			if name == "Content-Disposition" {
				if v = attachmentDisposition(v); v == "" {
					continue
				}
			}
			if name == "Content-Type" {
				lower := strings.ToLower(v)
				for _, t := range activeTypes {
					if strings.Contains(lower, t) {
						v = "text/plain; charset=utf-8"
					}
				}
			}
			dst.Add(name, v)
		}
	}
	// Even an allowed answer never runs as a page: no scripts, no frames.
	dst.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; sandbox")
	dst.Set("X-Content-Type-Options", "nosniff")
}

// pluginPath turns the wildcard part of /api/tools/{id}/* into the path a
// plugin receives. It is decoded once and refused when any segment is "."
// or "..", or it holds a backslash or a control character, so a plugin
// never sees a path that climbs out of its own tree however it is encoded.
func pluginPath(raw string, encoded bool) (string, bool) {
	p := raw
	if encoded {
		var err error
		if p, err = url.PathUnescape(raw); err != nil {
			return "", false
		}
	}
	for _, c := range p {
		if c == '\\' || c < 0x20 || c == 0x7f {
			return "", false
		}
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return "", false
		}
	}
	return "/" + p, true
}

// Tool is one entry of GET /api/tools.
type Tool struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Version     string          `json:"version"`
	Icon        string          `json:"icon"`
	Category    string          `json:"category"`
	Slug        string          `json:"slug"`
	Access      string          `json:"access"`
	Premium     bool            `json:"premium"`
	Locked      bool            `json:"locked"` // visible, but this user may not use it
	UIKind      string          `json:"ui_kind"`
	UISchema    json.RawMessage `json:"ui_schema,omitempty"`
	Available   bool            `json:"available"`
}

// capability is the casbin object naming a tool's access level:
// "tool:user" or "tool:premium", with actions "view" and "use".
func capability(access string) string { return "tool:" + access }

// Tools returns the tools principal may see, ordered by name.
func (m *Manager) Tools(az *authz.Authorizer, p core.Principal) []Tool {
	out := []Tool{}
	for _, pl := range m.sorted() {
		man, schema, running := pl.info()
		if man.Kind != "tool" || !az.Allowed(p.Roles, capability(man.Access), "view") {
			continue
		}
		t := Tool{
			ID: man.Id, Name: man.Name, Description: man.Description, Version: man.Version,
			Icon: man.Icon, Category: man.Category, Slug: man.Slug, Access: man.Access,
			Premium:   man.Access == "premium",
			Locked:    !az.Allowed(p.Roles, capability(man.Access), "use"),
			UIKind:    man.UiKind,
			UISchema:  schema,
			Available: running,
		}
		out = append(out, t)
		// Further pages of the same tool: same plugin, access and view,
		// their own slug, name and description.
		for _, pg := range man.Pages {
			if pg == nil {
				continue
			}
			page := t
			page.Slug, page.Name, page.Description = pg.Slug, pg.Name, pg.Description
			if pg.Icon != "" {
				page.Icon = pg.Icon
			}
			out = append(out, page)
		}
	}
	slices.SortStableFunc(out, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// HandleList serves GET /api/tools.
func HandleList(log *slog.Logger, m *Manager, az *authz.Authorizer) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		return httpx.Encode(w, http.StatusOK, map[string]any{"tools": m.Tools(az, core.PrincipalFrom(r.Context()))})
	})
}

// headersToPlugin are the request headers a plugin may see; cookies and
// credentials stay in the core.
var headersToPlugin = []string{"Content-Type", "Accept", "Accept-Language", "If-None-Match"}

// HandleCall serves /api/tools/{id}/*: it forwards the request, with the
// signed-in user, to the plugin and copies its answer back.
func HandleCall(log *slog.Logger, m *Manager, az *authz.Authorizer) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		pl, ok := m.plugin(chi.URLParam(r, "id"))
		if !ok {
			return core.Errorf(core.ENOTFOUND, msgNotFound)
		}
		man, _, _ := pl.info()
		principal := core.PrincipalFrom(r.Context())
		if !az.Allowed(principal.Roles, capability(man.Access), "use") {
			return core.Errorf(core.EFORBIDDEN, msgPremiumOnly)
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return core.Errorf(core.ETOOLARGE, msgTooLarge)
		}
		if err != nil {
			return core.Errorf(core.EINVALID, "Não foi possível ler a requisição.")
		}
		// chi matches on RawPath when the request carried one (non-canonical
		// escapes such as %2e), so only then is the wildcard still encoded.
		path, ok := pluginPath(chi.URLParam(r, "*"), r.URL.RawPath != "")
		if !ok {
			return core.Errorf(core.EINVALID, msgBadPath)
		}
		req := &pluginpb.HTTPRequest{
			Method:    r.Method,
			Path:      path,
			RawQuery:  r.URL.RawQuery,
			Body:      body,
			User:      userOf(principal),
			RequestId: httpx.RequestID(r.Context()),
		}
		for _, name := range headersToPlugin {
			if v := r.Header.Values(name); len(v) > 0 {
				req.Headers = append(req.Headers, &pluginpb.Header{Name: name, Values: cleanHeaderValues(v)})
			}
		}
		res, err := pl.Handle(r.Context(), principal, req)
		if err != nil {
			return err
		}
		status := int(res.Status)
		if status < 100 || status > 599 {
			status = http.StatusBadGateway
		}
		if status >= 400 && !isJSON(res.Headers) {
			// Every error the API answers has one shape; a plugin's plain-text
			// error (a router's "404 page not found", an older SDK) is turned
			// into it, keeping the status's meaning.
			return pluginErrorAnswer(w, status, res.Headers)
		}
		copyPluginHeaders(w.Header(), res.Headers)
		w.WriteHeader(status)
		_, _ = w.Write(res.Body)
		return nil
	})
}

// cleanHeaderValues keeps forwarded header values valid UTF-8 without
// control characters: the wire to the plugin (protobuf strings) refuses
// anything else, and a client's odd header must not fail its request.
func cleanHeaderValues(vs []string) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		v = strings.ToValidUTF8(v, "\uFFFD")
		v = strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' || r == 0x7f {
				return -1
			}
			return r
		}, v)
		out = append(out, v)
	}
	return out
}

func isJSON(hs []*pluginpb.Header) bool {
	for _, h := range hs {
		if http.CanonicalHeaderKey(h.Name) != "Content-Type" || len(h.Values) == 0 {
			continue
		}
		mt := strings.ToLower(strings.TrimSpace(strings.Split(h.Values[0], ";")[0]))
		return mt == "application/json" || strings.HasSuffix(mt, "+json")
	}
	return false
}

func pluginErrorAnswer(w http.ResponseWriter, status int, hs []*pluginpb.Header) error {
	switch {
	case status == http.StatusNotFound:
		return core.Errorf(core.ENOTFOUND, msgNoRoute)
	case status == http.StatusMethodNotAllowed:
		for _, h := range hs {
			if http.CanonicalHeaderKey(h.Name) == "Allow" {
				for _, v := range h.Values {
					if !strings.ContainsAny(v, "\r\n\x00") {
						w.Header().Add("Allow", v)
					}
				}
			}
		}
		return core.Errorf(core.EMETHOD, msgNoMethod)
	case status == http.StatusRequestEntityTooLarge:
		return core.Errorf(core.ETOOLARGE, msgTooLarge)
	case status == http.StatusUnauthorized:
		return core.NotSignedIn()
	case status == http.StatusForbidden:
		return core.Errorf(core.EFORBIDDEN, msgRefused)
	case status == http.StatusTooManyRequests:
		return core.Errorf(core.ERATELIMITED, "Muitas requisições. Tente novamente em instantes.")
	case status < 500:
		return core.Errorf(core.EINVALID, msgRefused)
	default:
		return core.Errorf(core.EUNAVAILABLE, msgUnavailable)
	}
}

func userOf(p core.Principal) *pluginpb.User {
	sub := "none"
	switch {
	case p.HasRole(core.RolePremium):
		sub = "premium"
	case p.HasRole(core.RoleTrial):
		sub = "trial"
	}
	return &pluginpb.User{Id: p.UserID, Roles: p.Roles, Subscription: sub}
}

// Handle calls the plugin with a per-call timeout. A hung or crashed plugin
// fails this call with a pt-BR error and is restarted; others are unaffected.
func (pl *plugin) Handle(ctx context.Context, principal core.Principal, req *pluginpb.HTTPRequest) (*pluginpb.HTTPResponse, error) {
	ctx, cancel, extend := withExtensibleTimeout(ctx, pl.m.opts.CallTimeout)
	defer cancel()
	token := newToken()
	req.RequestToken = token
	pl.tokens.Store(token, requestContext{principal: principal, requestID: req.RequestId, extend: extend})
	defer pl.tokens.Delete(token)

	c, done, err := pl.use(ctx)
	defer done()
	if err != nil {
		return nil, &core.Error{Code: core.EUNAVAILABLE, Message: msgUnavailable, Err: err}
	}
	res, err := c.Handle(ctx, req)
	if err == nil {
		return res, nil
	}
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded {
		pl.log.Error("plugin call timed out; restarting it", "path", req.Path, "timeout", pl.m.opts.CallTimeout)
		pl.requestRestart()
		return nil, &core.Error{Code: core.EUNAVAILABLE, Message: msgTimeout, Err: err}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err() // the client went away
	}
	pl.log.Error("plugin call failed", "path", req.Path, "err", err)
	if status.Code(err) == codes.Unavailable {
		pl.requestRestart()
	}
	return nil, &core.Error{Code: core.EUNAVAILABLE, Message: msgUnavailable, Err: err}
}

// Card is a plugin's home-dashboard card (hook 1).
type Card struct {
	Plugin string `json:"plugin"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	// Link is a path inside the app ("" when none).
	Link string `json:"link,omitempty"`
}

// DashboardCards calls hook 1 on every plugin that implements it, for the
// user's home page. A card's link must be a path inside the app: anything
// else (another site, "//host", a script URL) is dropped, the card kept.
func (m *Manager) DashboardCards(ctx context.Context, principal core.Principal) []Card {
	out := []Card{}
	for _, pl := range m.sorted() {
		pl.mu.Lock()
		implemented, id := pl.hooks[pluginpb.Hook_HOOK_DASHBOARD_CARD], pl.manifest.Id
		pl.mu.Unlock()
		if !implemented {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, pl.m.opts.CallTimeout)
		// An idle on-demand plugin is started for its card.
		c, done, err := pl.use(cctx)
		if err != nil {
			done()
			cancel()
			continue // restarting or failed: no card this time
		}
		token := newToken()
		pl.tokens.Store(token, requestContext{principal: principal})
		card, err := c.DashboardCard(cctx, &pluginpb.DashboardCardRequest{User: userOf(principal), RequestToken: token})
		pl.tokens.Delete(token)
		done()
		cancel()
		if err != nil {
			pl.log.Warn("dashboard card hook failed", "err", err)
			continue
		}
		if !card.Show || strings.TrimSpace(card.Title) == "" {
			continue
		}
		out = append(out, Card{Plugin: id, Title: card.Title, Body: card.Body, Link: appLink(card.Link)})
	}
	return out
}

// appLink keeps link when it is a path inside the app, else "".
func appLink(link string) string {
	if !strings.HasPrefix(link, "/") || strings.HasPrefix(link, "//") || strings.ContainsAny(link, "\\\r\n\t") {
		return ""
	}
	return link
}

// HandleCards serves GET /api/dashboard/cards: the plugins' cards for the
// signed-in user's home page.
func HandleCards(log *slog.Logger, m *Manager) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		return httpx.Encode(w, http.StatusOK, map[string]any{"cards": m.DashboardCards(r.Context(), core.PrincipalFrom(r.Context()))})
	})
}
