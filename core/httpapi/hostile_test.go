package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/pluginhost"
)

// TestHostileInputWalk sends hostile input to every operation of
// openapi.json (a route missing there fails TestEveryRouteIsInOpenAPI, so
// new routes are walked automatically) as a visitor, a member and a super
// administrator, against a real server with the real plugins. Any 5xx fails,
// and so does any error answer that is not the documented error shape
// {"error":{"code","message"}} with a known code, any header an input
// managed to inject and any redirect to another host. There is no list of
// tolerated failures: a hostile input either gets a clear 4xx or works.
func TestHostileInputWalk(t *testing.T) {
	doc := loadOpenAPI(t)
	srv := apptest.Start(t, map[string]string{
		"PLUGINS_DIR": buildRealPlugins(t),
		// The walk signs up and logs in hundreds of times from one address.
		"RATE_LIMIT_SIGNUPS_PER_IP": "1000000",
		"RATE_LIMIT_LOGINS_PER_IP":  "1000000",
		// A loaded test machine must not turn a slow plugin call into a 503.
		"PLUGIN_CALL_TIMEOUT": "60s",
	})
	w := newWalker(t, srv, doc)
	w.waitForPlugins()
	w.discoverTools()

	var groups [][]walkCase
	n := 0
	for _, op := range doc.operations() {
		for _, who := range w.principals {
			g := w.casesFor(op, who)
			groups = append(groups, g)
			n += len(g)
		}
	}
	var wrong []walkCase
	for _, path := range doc.paths() {
		// PATCH is the wrong method everywhere except where a route serves
		// it (tus uploads append chunks with it).
		if _, served := doc.Paths[path]["patch"]; served {
			continue
		}
		wrong = append(wrong, w.wrongMethodCase(path))
	}
	groups = append(groups, wrong)
	t.Logf("hostile walk: %d requests over %d operations", n+len(wrong), len(doc.operations()))
	var first, last [][]walkCase
	for _, g := range groups {
		if len(g) > 0 && endsEverySession(g[0].desc) {
			last = append(last, g)
		} else {
			first = append(first, g)
		}
	}
	w.run(first)
	w.run(last)
}

// ---- the OpenAPI document ----

type apiDoc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]schema `json:"schemas"`
	} `json:"components"`
	errorCodes []string
}

type schema struct {
	Ref        string            `json:"$ref"`
	Type       any               `json:"type"`
	Format     string            `json:"format"`
	Properties map[string]schema `json:"properties"`
	Items      *schema           `json:"items"`
}

type apiParam struct {
	Name   string `json:"name"`
	In     string `json:"in"`
	Schema schema `json:"schema"`
}

type apiOp struct {
	method, path string
	Parameters   []apiParam                 `json:"parameters"`
	Responses    map[string]json.RawMessage `json:"responses"`
	RequestBody  *struct {
		Content map[string]struct {
			Schema schema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

func loadOpenAPI(t *testing.T) *apiDoc {
	t.Helper()
	b, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var d apiDoc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	var codes struct {
		Properties struct {
			Error struct {
				Properties struct {
					Code struct {
						Enum []string `json:"enum"`
					} `json:"code"`
				} `json:"properties"`
			} `json:"error"`
		} `json:"properties"`
	}
	var all struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	_ = json.Unmarshal(b, &all)
	if err := json.Unmarshal(all.Components.Schemas["Error"], &codes); err != nil {
		t.Fatalf("openapi.json Error schema: %v", err)
	}
	d.errorCodes = codes.Properties.Error.Properties.Code.Enum
	if len(d.errorCodes) == 0 {
		t.Fatal("openapi.json: the Error schema lists no codes")
	}
	return &d
}

func (d *apiDoc) paths() []string {
	var out []string
	for p := range d.Paths {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (d *apiDoc) operations() []apiOp {
	var out []apiOp
	for _, p := range d.paths() {
		var shared []apiParam
		if raw, ok := d.Paths[p]["parameters"]; ok {
			_ = json.Unmarshal(raw, &shared)
		}
		for method, raw := range d.Paths[p] {
			if method == "parameters" || method == "summary" || method == "description" {
				continue
			}
			op := apiOp{method: strings.ToUpper(method), path: p}
			_ = json.Unmarshal(raw, &op)
			op.Parameters = append(op.Parameters, shared...)
			out = append(out, op)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].method < out[j].path+out[j].method })
	return out
}

// resolve follows a local $ref.
func (d *apiDoc) resolve(s schema) schema {
	for i := 0; s.Ref != "" && i < 10; i++ {
		s = d.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
	}
	return s
}

func typeOf(s schema) string {
	switch v := s.Type.(type) {
	case string:
		return v
	case []any:
		for _, x := range v {
			if x != "null" {
				return fmt.Sprint(x)
			}
		}
	}
	return "string"
}

// ---- principals ----

type principal struct {
	name, userID, email string
}

type walker struct {
	t          *testing.T
	srv        *apptest.Server
	doc        *apiDoc
	http       *http.Client
	principals []principal
	targetID   string // another member, the subject of admin and profile routes
	// tools maps "METHOD /api/tools/id/path" of the real plugins to a valid
	// body (nil for none).
	tools map[string]map[string]json.RawMessage

	mu       sync.Mutex
	failures []string
}

func newWalker(t *testing.T, srv *apptest.Server, doc *apiDoc) *walker {
	w := &walker{t: t, srv: srv, doc: doc, http: &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	_, userID := srv.SignedIn(t, "walk-membro@example.com")
	_, adminID := srv.SignedIn(t, "walk-chefe@example.com", "super_admin")
	_, w.targetID = srv.SignedIn(t, "walk-alvo@example.com")
	w.principals = []principal{
		{name: "visitor"},
		{name: "member", userID: userID, email: "walk-membro@example.com"},
		{name: "super admin", userID: adminID, email: "walk-chefe@example.com"},
	}
	return w
}

// session opens a fresh session for who, so a case that logs out or
// revokes a session never disturbs another case.
func (w *walker) session(who principal) (access, refresh, sessionID string) {
	if who.userID == "" {
		return "", "", ""
	}
	tokens, err := w.srv.App.Auth.StartVerifiedSession(context.Background(), who.userID, "hostile-walk")
	if err != nil {
		w.fail("session for %s: %v", who.name, err)
		return "", "", ""
	}
	return tokens.Access, tokens.Refresh, tokens.SessionID
}

// waitForPlugins waits until every installed plugin answers, so a plugin
// still starting is not mistaken for a 503 the walk caused.
func (w *walker) waitForPlugins() {
	access, _, _ := w.session(w.principals[1])
	deadline := time.Now().Add(60 * time.Second)
	for {
		req, _ := http.NewRequest("GET", w.srv.URL+"/api/tools", nil)
		req.Header.Set("Authorization", "Bearer "+access)
		res, err := w.http.Do(req)
		if err == nil {
			var body struct {
				Tools []struct {
					ID        string `json:"id"`
					Available bool   `json:"available"`
				} `json:"tools"`
			}
			_ = json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
			ready := len(body.Tools) == len(realPlugins)
			for _, tool := range body.Tools {
				ready = ready && tool.Available
			}
			if ready {
				return
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the real plugins did not become available in 60 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// ---- cases ----

// walkCase is one request: a description for the failure message and a
// builder run by the worker (so sessions are opened just before use).
type walkCase struct {
	op    apiOp
	who   principal
	desc  string
	build func(access, refresh, sessionID string) *http.Request
	// expect405 marks a method the path does not serve.
	expect405 bool
}

// validPaths fills a path template with values that reach the handler:
// for the plugin route, every endpoint the real plugins declare for the
// method, and one they do not.
func (w *walker) validPaths(op apiOp) []string {
	if !strings.HasPrefix(op.path, "/api/tools/{id}/") {
		return []string{op.path}
	}
	var out []string
	for path := range w.tools {
		if strings.HasPrefix(path, op.method+" ") {
			out = append(out, strings.TrimPrefix(path, op.method+" "))
		}
	}
	sort.Strings(out)
	return append(out, "/api/tools/calculadoras/nao-existe")
}

// swotAnalysis is a valid body of the SWOT plugin, which has no form.
var swotAnalysis = map[string]json.RawMessage{
	"title":     json.RawMessage(`"Clínica"`),
	"quadrants": json.RawMessage(`{"strengths":["equipe"],"weaknesses":[],"opportunities":[],"threats":[]}`),
}

// discoverTools reads the real plugins' forms from GET /api/tools: each
// form's action with a valid body (defaults, minimums, first options).
// Tools without forms (the SWOT app) are listed by hand.
func (w *walker) discoverTools() {
	const swot = "/api/tools/analise-swot/analyses"
	someID := swot + "/00000000-0000-0000-0000-000000000001"
	w.tools = map[string]map[string]json.RawMessage{
		"GET " + swot: nil, "POST " + swot: swotAnalysis,
		"GET " + someID: nil, "PUT " + someID: swotAnalysis, "DELETE " + someID: nil,
		"GET " + swot + "/1": nil,
	}
	access, _, _ := w.session(w.principals[2])
	req, _ := http.NewRequest("GET", w.srv.URL+"/api/tools", nil)
	req.Header.Set("Authorization", "Bearer "+access)
	res, err := w.http.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Tools []struct {
			ID       string          `json:"id"`
			UISchema json.RawMessage `json:"ui_schema"`
		} `json:"tools"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		w.t.Fatal(err)
	}
	type field struct {
		Name    string   `json:"name"`
		Type    string   `json:"type"`
		Min     *float64 `json:"min"`
		Default any      `json:"default"`
		Options []struct {
			Value string `json:"value"`
		} `json:"options"`
	}
	type form struct {
		Action string  `json:"action"`
		Fields []field `json:"fields"`
	}
	var find func(v any, id string)
	find = func(v any, id string) {
		switch x := v.(type) {
		case map[string]any:
			if action, ok := x["action"].(string); ok {
				b, _ := json.Marshal(x)
				var f form
				_ = json.Unmarshal(b, &f)
				valid := map[string]json.RawMessage{}
				for _, fd := range f.Fields {
					var val any = "x"
					switch {
					case len(fd.Options) > 0:
						val = fd.Options[0].Value
					case fd.Default != nil:
						val = fd.Default
					case fd.Type == "number" && fd.Min != nil:
						val = max(*fd.Min, 1)
					case fd.Type == "number":
						val = 10
					}
					valid[fd.Name], _ = json.Marshal(val)
				}
				w.tools["POST /api/tools/"+id+"/"+strings.TrimPrefix(action, "/")] = valid
				return
			}
			for _, sub := range x {
				find(sub, id)
			}
		case []any:
			for _, sub := range x {
				find(sub, id)
			}
		}
	}
	for _, tool := range body.Tools {
		var v any
		_ = json.Unmarshal(tool.UISchema, &v)
		find(v, tool.ID)
	}
	if len(w.tools) < 10 {
		w.t.Fatalf("found only %d plugin endpoints in GET /api/tools: %v", len(w.tools), body)
	}
}

var realPlugins = []string{"calculadoras", "calculadora-servico", "analise-swot"}

var pathParam = regexp.MustCompile(`\{([A-Za-z_]+)\}`)

// fill replaces each {param} with its valid value, or with hostile for the
// one named param.
func (w *walker) fill(path, sessionID, param, hostile string) string {
	return pathParam.ReplaceAllStringFunc(path, func(m string) string {
		name := strings.Trim(m, "{}")
		if name == param {
			return hostile
		}
		switch {
		case name == "id" && strings.HasPrefix(path, "/api/auth/sessions/"):
			if sessionID == "" {
				return "00000000-0000-0000-0000-000000000000"
			}
			return sessionID
		case name == "id":
			return w.targetID
		case name == "role":
			return "editor"
		case name == "limitType":
			return "patients"
		case name == "path" && strings.HasPrefix(path, "/uploads/"):
			return "avatars/nao-existe.webp"
		case name == "path":
			return "dose"
		}
		return "x"
	})
}

// hostilePathValues are already escaped for the URL.
var hostilePathValues = []string{
	"..%2F..%2F..%2Fetc%2Fpasswd", "../../../etc/passwd", "%2e%2e", "..", "%00", "a%00b", "%ff%fe", "%C0%AF",
	"a%0D%0AX-Walk-Injected:%201", "%E2%80%AE%E2%80%8B", strings.Repeat("a", 8000), "-1", "99999999999999999999999",
	"00000000-0000-0000-0000-000000000000", "%27%20OR%201=1--", "%7Bid%7D", "a%2Fb", "%25", "%20",
}

// hostileQueryValues are already escaped for the URL.
var hostileQueryValues = []string{
	"", "%00", "%ff", "a%0D%0AX-Walk-Injected:%201", url.QueryEscape(strings.Repeat("a", 100_000)), "-1",
	"9223372036854775808", "-9223372036854775809", "1e308", "NaN", url.QueryEscape(`[0,9223372036854775807]`),
	url.QueryEscape(`[-5,-1]`), url.QueryEscape(`[0,1.5]`), url.QueryEscape(`{"q":"\u0000"}`), url.QueryEscape(`{"q":1}`),
	url.QueryEscape(`{"q":"` + strings.Repeat("%", 5000) + `"}`), url.QueryEscape(`["email","DROP"]`),
	url.QueryEscape(`["password_hash","ASC"]`), "%5B", url.QueryEscape("../../etc/passwd"), url.QueryEscape("//evil.example"),
	url.QueryEscape(`/\evil.example`), url.QueryEscape(`/..%2F%5Cevil.example`), url.QueryEscape("javascript:alert(1)"),
	"%25", "a;b", url.QueryEscape("\u202e\u200b"),
}

// hostileValues are JSON literals put in place of one field of a body.
var hostileValues = []string{
	`"\u0000"`, `"a\u0000b"`, `"\u001b[31m"`, `"a\bb"`, "\"\xff\xfe\"", `"\ud800"`, `"\u202e\u200b"`, `""`, `" "`,
	`"` + strings.Repeat("a", 1_000_000) + `"`, `"` + strings.Repeat("a", 3000) + `@example.com"`,
	`"../../etc/passwd"`, `"<script>alert(1)</script>"`, `"9999-99-99"`, `"Mars/Olympus"`,
	`-1`, `0`, `1e308`, `-1e308`, `9223372036854775808`, `-9223372036854775809`, `1.5`,
	`true`, `null`, `[]`, `{}`, `["\u0000"]`, `[1,2]`, `{"$ne":""}`, `[` + strings.Repeat(`"a",`, 10000) + `"a"]`,
}

// genericBodies are whole bodies every write gets, whatever its schema.
func genericBodies() []string {
	return []string{
		"", "{", "}", "null", "[]", `"x"`, "123", "{}", `{"a":1} x`, `{"zz_desconhecido":1}`,
		strings.Repeat("[", 100_000), strings.Repeat(`{"a":`, 20_000), "\xff\xfe\xfd",
		`{"a":"` + strings.Repeat("b", 2<<20) + `"}`, // over the 1 MB limit
		strings.Repeat(" ", 500_000) + "{}",
	}
}

// base is a plausible value for a body field.
func base(name string, s schema) any {
	switch typeOf(s) {
	case "boolean":
		return false
	case "integer", "number":
		return 1
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	switch name {
	case "email":
		return "walk-membro@example.com"
	case "password":
		return apptest.TestPassword
	case "first_name":
		return "Ana"
	case "last_name":
		return "Lima"
	case "time_zone":
		return "America/Sao_Paulo"
	}
	return ""
}

// bodies returns the JSON bodies for op: the generic ones, then the valid
// body with each field in turn replaced by each hostile value, then the
// valid body with an unknown field.
func (w *walker) bodies(op apiOp, path string) (out []string) {
	out = genericBodies()
	var props map[string]schema
	if op.RequestBody != nil {
		if c, ok := op.RequestBody.Content["application/json"]; ok {
			props = w.doc.resolve(c.Schema).Properties
		}
	}
	valid := map[string]json.RawMessage{}
	for name, s := range props {
		b, _ := json.Marshal(base(name, w.doc.resolve(s)))
		valid[name] = b
	}
	if target, ok := w.tools[path]; ok {
		valid = target
	}
	props = map[string]schema{}
	for name := range valid {
		props[name] = schema{}
	}
	encode := func(m map[string]json.RawMessage) string {
		var sb strings.Builder
		sb.WriteString("{")
		first := true
		for k, v := range m {
			if !first {
				sb.WriteString(",")
			}
			first = false
			kb, _ := json.Marshal(k)
			sb.Write(kb)
			sb.WriteString(":")
			sb.Write(v)
		}
		sb.WriteString("}")
		return sb.String()
	}
	out = append(out, encode(valid))
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, hv := range hostileValues {
			m := maps(valid)
			m[name] = json.RawMessage(hv)
			out = append(out, encode(m))
		}
	}
	m := maps(valid)
	m["zz_desconhecido"] = json.RawMessage(`"\u0000"`)
	out = append(out, encode(m))
	return out
}

func maps(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// hostileHeaders are sent one set at a time on an otherwise valid request.
var hostileHeaders = []map[string]string{
	{"User-Agent": "Mozilla\xff\xfe\x80 inválido"},
	{"User-Agent": strings.Repeat("a", 8000)},
	{"X-Request-Id": "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8"},
	{"X-Request-Id": strings.Repeat("a", 4000)},
	{"X-Forwarded-For": "\xff, 999.999.1.1, ::::, " + strings.Repeat("1", 3000)},
	{"X-Forwarded-Proto": "\xff"},
	{"Authorization": "Bearer \xff\xfe"},
	{"Authorization": "Bearer " + strings.Repeat("a", 8000)},
	{"Authorization": "Basic Og=="},
	{"Cookie": "vc_access=\xff; vc_refresh=%00; vc_csrf=\xfe"},
	{"Accept-Encoding": "br;q=\xff, gzip;q=-1"},
	{"Content-Type": "application/json; charset=\xff"},
	{"Content-Type": "multipart/form-data"},
	{"Last-Event-ID": "99999999999999999999"},
	{"Last-Event-ID": "-1\xff"},
	{"If-None-Match": "*"},
	{"Range": "bytes=0-9223372036854775807"},
	{"Range": "bytes=-1-5"},
}

func isWrite(method string) bool {
	return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE"
}

func (w *walker) casesFor(op apiOp, who principal) []walkCase {
	var out []walkCase
	add := func(desc string, path, rawQuery string, body []byte, contentType string, headers map[string]string, method string) {
		out = append(out, walkCase{op: op, who: who, desc: desc, build: func(access, refresh, sessionID string) *http.Request {
			u := w.srv.URL + w.fill(path, sessionID, "", "")
			if rawQuery != "" {
				u += "?" + rawQuery
			}
			var rd io.Reader
			if body != nil {
				rd = bytes.NewReader(body)
			}
			req, err := http.NewRequest(method, u, rd)
			if err != nil {
				w.fail("%s: %s: building the request: %v", who.name, desc, err)
				return nil
			}
			if contentType != "" {
				req.Header.Set("Content-Type", contentType)
			}
			if access != "" {
				req.Header.Set("Authorization", "Bearer "+access)
				req.AddCookie(&http.Cookie{Name: "vc_refresh", Value: refresh})
			}
			for k, v := range headers {
				req.Header[http.CanonicalHeaderKey(k)] = []string{v}
			}
			return req
		}})
	}
	jsonType := "application/json"
	for i, path := range w.validPaths(op) {
		label := op.method + " " + path
		// Parameters and headers are the route's; bodies are each endpoint's.
		first := i == 0
		// The valid request, and HEAD for every GET.
		add(label, path, "", nil, "", nil, op.method)
		if op.method == "GET" {
			add("HEAD "+path, path, "", nil, "", nil, "HEAD")
		}
		// Each path parameter in turn takes each hostile value.
		for _, p := range op.Parameters {
			if p.In != "path" || !first {
				continue
			}
			for _, hv := range hostilePathValues {
				name, value := p.Name, hv
				out = append(out, walkCase{op: op, who: who, desc: fmt.Sprintf("%s with path {%s}=%s", label, name, short(value)),
					build: func(access, refresh, sessionID string) *http.Request {
						tpl := op.path
						if strings.HasPrefix(op.path, "/api/tools/") && name == "path" {
							tpl = "/api/tools/calculadoras/{path}"
						}
						req, err := http.NewRequest(op.method, w.srv.URL+w.fill(tpl, sessionID, name, value), nil)
						if err != nil {
							// Some values make an URL Go refuses to send; nothing to test.
							return nil
						}
						if access != "" {
							req.Header.Set("Authorization", "Bearer "+access)
						}
						return req
					}})
			}
		}
		// Each query parameter (and an undocumented one) in turn.
		queries := []string{"zz_desconhecido"}
		if !first {
			queries = nil
		}
		for _, p := range op.Parameters {
			if p.In == "query" {
				queries = append(queries, p.Name)
			}
		}
		for _, q := range queries {
			for _, hv := range hostileQueryValues {
				add(fmt.Sprintf("%s?%s=%s", label, q, short(hv)), path, q+"="+hv, nil, "", nil, op.method)
			}
		}
		// Hostile headers.
		for _, h := range hostileHeaders {
			if !first {
				break
			}
			var body []byte
			ct := ""
			if isWrite(op.method) {
				body, ct = []byte("{}"), jsonType
			}
			add(fmt.Sprintf("%s with headers %q", label, short(fmt.Sprint(h))), path, "", body, ct, h, op.method)
		}
		// Bodies.
		if op.RequestBody != nil {
			if _, ok := op.RequestBody.Content["multipart/form-data"]; ok {
				for _, mp := range multipartBodies() {
					add(fmt.Sprintf("%s with multipart %s", label, mp.desc), path, "", mp.body, mp.contentType, nil, op.method)
				}
			}
		}
		if isWrite(op.method) {
			// The field-by-field matrix is the bulk of the walk; handlers read
			// bodies the same way whoever calls, so the super administrator,
			// whom the policy lets through everywhere, sends it, and the
			// others send the whole-body cases.
			bodies := genericBodies()
			if who.name == "super admin" {
				bodies = w.bodies(op, path)
			}
			for _, b := range bodies {
				add(fmt.Sprintf("%s with body %s", label, short(b)), path, "", []byte(b), jsonType, nil, op.method)
			}
			// The same bodies under a content type the handler does not expect.
			add(label+" with text/plain JSON", path, "", []byte(`{"email":"a@b.c"}`), "text/plain", nil, op.method)
		}
	}
	return out
}

type multipartCase struct {
	desc, contentType string
	body              []byte
}

func multipartBodies() []multipartCase {
	part := func(field, filename, ctype string, content []byte) (string, []byte) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name=%q; filename=%q`, field, filename)}
		if ctype != "" {
			h["Content-Type"] = []string{ctype}
		}
		pw, _ := mw.CreatePart(h)
		_, _ = pw.Write(content)
		_ = mw.Close()
		return mw.FormDataContentType(), buf.Bytes()
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x7f\xff\xff\xff\x00\x00\x00\x01\x08\x06\x00\x00\x00")
	var out []multipartCase
	ct, b := part("avatar", "a.png", "image/png", png)
	out = append(out, multipartCase{"huge PNG header", ct, b})
	out = append(out, multipartCase{"truncated", ct, b[:len(b)/2]})
	ct, b = part("avatar", "../../../etc/passwd", "image/png", []byte("not an image"))
	out = append(out, multipartCase{"not an image, traversal name", ct, b})
	ct, b = part("outro", "a.png", "image/png", png)
	out = append(out, multipartCase{"wrong field", ct, b})
	ct, b = part("avatar", "a.png", "", nil)
	out = append(out, multipartCase{"empty file", ct, b})
	ct, b = part("avatar", "a\x00.png", "image/png\r\nX-Walk-Injected: 1", []byte("GIF89a"))
	out = append(out, multipartCase{"control characters in headers", ct, b})
	out = append(out, multipartCase{"no boundary", "multipart/form-data", []byte("--x\r\n\r\n")})
	out = append(out, multipartCase{"boundary only", "multipart/form-data; boundary=x", []byte("--x--")})
	out = append(out, multipartCase{"garbage", "multipart/form-data; boundary=x", []byte("\xff\xfe\x00garbage")})
	return out
}

// wrongMethodCase sends a method no operation of path serves: 405 with Allow.
func (w *walker) wrongMethodCase(path string) walkCase {
	return walkCase{who: w.principals[2], desc: "PATCH " + path, expect405: true,
		build: func(access, _, sessionID string) *http.Request {
			req, _ := http.NewRequest("PATCH", w.srv.URL+w.fill(path, sessionID, "", ""), strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+access)
			return req
		}}
}

// ---- running and judging ----

func (w *walker) fail(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.failures = append(w.failures, fmt.Sprintf(format, args...))
}

// run sends each group's requests in order on one session (a fresh one per
// request for routes that end sessions), the groups in parallel.
func (w *walker) run(groups [][]walkCase) {
	const workers = 6
	jobs := make(chan []walkCase)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range jobs {
				if len(g) == 0 {
					continue
				}
				access, refresh, sessionID := w.session(g[0].who)
				for _, c := range g {
					if endsSessions(c.desc) {
						access, refresh, sessionID = w.session(c.who)
					}
					w.runOne(c, access, refresh, sessionID)
				}
			}
		}()
	}
	for _, g := range groups {
		jobs <- g
	}
	close(jobs)
	wg.Wait()
	sort.Strings(w.failures)
	for _, f := range w.failures {
		w.t.Error(f)
	}
	w.failures = nil
}

// endsSessions reports a case whose route may end the session it uses.
func endsSessions(desc string) bool {
	return strings.Contains(desc, "/api/auth/logout") || strings.Contains(desc, "/api/auth/refresh") ||
		strings.Contains(desc, "/api/auth/sessions/") || endsEverySession(desc)
}

// endsEverySession reports a case whose route may sign its member out of
// every session: scheduling the account's deletion (the walk knows the
// password) and undoing an e-mail change. Such groups run after all the
// others, which would otherwise lose the sessions they are using.
func endsEverySession(desc string) bool {
	return strings.Contains(desc, "POST /api/me/account-deletion") || strings.Contains(desc, "/api/auth/email/undo")
}

func (w *walker) runOne(c walkCase, access, refresh, sessionID string) {
	req := c.build(access, refresh, sessionID)
	if req == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := w.http.Do(req.WithContext(ctx))
	if err != nil {
		w.fail("as %s: %s: no answer: %v", c.who.name, c.desc, err)
		return
	}
	defer res.Body.Close()
	var body []byte
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		body, _ = io.ReadAll(io.LimitReader(res.Body, 8<<20))
	}
	if msg := w.judge(c, req, res, body); msg != "" {
		w.fail("as %s: %s: %d %s: %s", c.who.name, c.desc, res.StatusCode, short(string(body)), msg)
	}
}

var knownHost = regexp.MustCompile(`^(127\.0\.0\.1|localhost)(:\d+)?$|(^|\.)google\.com$`)

func (w *walker) judge(c walkCase, req *http.Request, res *http.Response, body []byte) string {
	for name, vs := range res.Header {
		if strings.Contains(strings.ToLower(name), "walk-injected") {
			return "a request value injected the header " + name
		}
		for _, v := range vs {
			if name == "Set-Cookie" && strings.Contains(strings.ToLower(v), "walk-injected") {
				return "a request value reached Set-Cookie: " + v
			}
		}
	}
	if loc := res.Header.Get("Location"); loc != "" {
		if strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, `/\`) || strings.ContainsAny(loc, "\\\x00\r\n") {
			return "redirect that leaves the site: Location " + loc
		}
		if u, err := url.Parse(loc); err != nil || (u.Host != "" && !knownHost.MatchString(u.Host)) {
			return "redirect to another host: Location " + loc
		}
	}
	// The super administrator passes every route's policy: a refusal means
	// the walk's sessions stopped working and it would test only 401s.
	if c.who.name == "super admin" && res.Header.Get("X-Denied-By") == "policy" && !strings.Contains(c.desc, "with headers") {
		return "the walk's super administrator session was refused by the policy"
	}
	if c.expect405 {
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") == "" {
			return fmt.Sprintf("want 405 with Allow, got Allow %q", res.Header.Get("Allow"))
		}
	}
	if res.StatusCode >= 500 {
		return "server error (request_id " + res.Header.Get("X-Request-Id") + ")"
	}
	if res.StatusCode < 400 || req.Method == "HEAD" || plainError(c.op, res.StatusCode) {
		return ""
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return "error answer is not JSON (Content-Type " + ct + ")"
	}
	var e struct {
		Error *struct {
			Code    string            `json:"code"`
			Message string            `json:"message"`
			Fields  map[string]string `json:"fields"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == nil {
		return "error answer is not the documented error shape"
	}
	if !slices.Contains(w.doc.errorCodes, e.Error.Code) {
		return fmt.Sprintf("error code %q is not documented", e.Error.Code)
	}
	if strings.TrimSpace(e.Error.Message) == "" {
		return "error answer without a message"
	}
	return ""
}

// plainError reports a status the operation documents with a body other
// than the error shape (a static file's 404); every other error answer,
// documented or not, must have the shape.
func plainError(op apiOp, status int) bool {
	raw, ok := op.Responses[fmt.Sprint(status)]
	return ok && !bytes.Contains(raw, []byte("#/components/responses/Error")) &&
		!bytes.Contains(raw, []byte("#/components/schemas/Error"))
}

func short(s string) string {
	s = strings.ToValidUTF8(s, "\\x??")
	if len(s) > 80 {
		return fmt.Sprintf("%s…(%d bytes)", s[:60], len(s))
	}
	return s
}

// buildRealPlugins builds the repository's plugins into a fresh plugin
// directory with their checksums, as `make plugins` does.
func buildRealPlugins(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(realPlugins))
	for i, name := range realPlugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./plugins/"+name)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("building plugin %s: %v\n%s", name, err, out)
				return
			}
			errs[i] = pluginhost.RecordChecksum(filepath.Join(dir, name))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
