package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/httpapi"
)

// routeParam matches one chi path parameter, with its optional regexp.
var routeParam = regexp.MustCompile(`\{([a-zA-Z_]+)(?::([^}]*))?\}`)

// concretePath fills a chi pattern's parameters with values that match
// them: a uuid where anything goes (ids), a number or a word where the
// pattern's regexp asks for one.
func concretePath(pattern, id string) string {
	p := routeParam.ReplaceAllStringFunc(pattern, func(m string) string {
		sub := routeParam.FindStringSubmatch(m)
		if sub[2] == "" {
			return id
		}
		re, err := regexp.Compile("^(?:" + sub[2] + ")$")
		if err != nil {
			return id
		}
		for _, candidate := range []string{id, "1", "x", "a-b"} {
			if re.MatchString(candidate) {
				return candidate
			}
		}
		return id
	})
	if strings.HasSuffix(p, "/*") {
		p = strings.TrimSuffix(p, "*") + "probe.txt"
	}
	return p
}

type probe struct {
	status   int
	deniedBy string
	message  string
}

// send calls the route the way the web app would (cookies, CSRF header, a
// JSON body on writes) without reading a streaming answer to its end.
func send(t *testing.T, c *apptest.Client, method, path string) probe {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var body io.Reader
	if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		body = strings.NewReader("{}")
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URLFor(path), body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	u, _ := url.Parse(c.URLFor("/"))
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == "vc_csrf" {
			req.Header.Set("X-CSRF-Token", ck.Value)
		}
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	p := probe{status: res.StatusCode, deniedBy: res.Header.Get(httpapi.DeniedByHeader)}
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		p.message = apptest.Response{Body: b}.ErrorMessage()
	}
	return p
}

// TestAuthorisationOverHTTP signs in as a visitor, a user, an editor and a
// super admin and calls every registered route. Where authorisationMatrix
// denies a role, the policy must answer 401 to the visitor and 403 to a
// signed-in user; where it allows one, the request must reach the handler
// (whatever the handler then answers to an empty body).
func TestAuthorisationOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	type actor struct {
		role   string
		email  string
		extra  []string
		client *apptest.Client
		userID string
	}
	actors := []*actor{
		{role: core.RoleVisitor},
		{role: core.RoleUser, email: "membro@example.com"},
		{role: core.RoleEditor, email: "editora@example.com", extra: []string{core.RoleEditor}},
		{role: core.RoleSuperAdmin, email: "chefe@example.com", extra: []string{core.RoleSuperAdmin}},
	}
	signIn := func(a *actor) {
		if a.email == "" {
			a.client = srv.Client(t)
			return
		}
		a.client, a.userID = srv.SignedIn(t, a.email, a.extra...)
	}
	for _, a := range actors {
		signIn(a)
	}
	// Path ids point at a real member, so public reads succeed.
	memberID := actors[1].userID

	routes := registeredRoutes(t, srv.App.Handler)
	slices.Sort(routes)
	checked := 0
	for _, route := range routes {
		method, pattern, _ := strings.Cut(route, " ")
		allowed, ok := authorisationMatrix[route]
		if !ok {
			t.Errorf("%s is missing from authorisationMatrix", route)
			continue
		}
		path := concretePath(pattern, memberID)
		for _, a := range actors {
			got := send(t, a.client, method, path)
			checked++
			switch {
			case !slices.Contains(allowed, a.role) && a.role == core.RoleVisitor:
				if got.status != http.StatusUnauthorized || got.deniedBy != "policy" || got.message != "Usuário não autenticado" {
					t.Errorf("%s %s as visitor: %d %q (denied by %q), want the policy's 401", method, path, got.status, got.message, got.deniedBy)
				}
			case !slices.Contains(allowed, a.role):
				if got.status != http.StatusForbidden || got.deniedBy != "policy" || got.message != "Você não tem permissão para acessar este recurso." {
					t.Errorf("%s %s as %s: %d %q (denied by %q), want the policy's 403", method, path, a.role, got.status, got.message, got.deniedBy)
				}
			default:
				if got.deniedBy != "" {
					t.Errorf("%s %s as %s: refused by the policy (%d %q) although the matrix allows it", method, path, a.role, got.status, got.message)
				}
			}
			// A route may end the session (sign-out, revoking sessions):
			// sign in again so later routes are checked with a live one.
			if a.email != "" {
				if alive := send(t, a.client, "GET", "/api/profile"); alive.status != http.StatusOK {
					signIn(a)
				}
			}
		}
	}
	t.Logf("checked %d calls over %d routes", checked, len(routes))
	if len(routes) < 10 || checked != len(routes)*len(actors) {
		t.Fatalf("checked %d calls over %d routes", checked, len(routes))
	}
}
