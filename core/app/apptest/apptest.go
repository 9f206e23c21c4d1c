// Package apptest starts complete VetClube instances in-process for tests:
// real HTTP, a real, isolated PostgreSQL database, every service wired as in
// production. Two instances may share one database to test behaviour across
// servers.
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"

	"github.com/vetclube/vetclube/core/app"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// Server is one running instance.
type Server struct {
	URL   string
	DBURL string
	App   *app.App
	Env   map[string]string
}

// Start runs a new instance on a fresh database. env overrides configuration
// variables (APP_ENV defaults to development, DATA_DIR to a temp dir).
func Start(t testing.TB, env map[string]string, opts ...Option) *Server {
	t.Helper()
	return StartOn(t, pgtest.NewURL(t), env, opts...)
}

// StartOn runs an instance on an existing database (shared with another
// instance, for cross-instance tests).
func StartOn(t testing.TB, dbURL string, env map[string]string, opts ...Option) *Server {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	vars := map[string]string{
		"APP_ENV":   "development",
		"DATA_DIR":  t.TempDir(),
		"LOG_LEVEL": "warn",
		"WEB_DIST":  t.TempDir(),
	}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatalf("apptest: config: %v", err)
	}
	ctx := context.Background()
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatalf("apptest: %v", err)
	}
	t.Cleanup(pool.Close)
	if err := postgres.Migrate(ctx, pool, nil); err != nil {
		t.Fatalf("apptest: migrate: %v", err)
	}
	var logOut io.Writer = io.Discard
	if os.Getenv("APPTEST_LOG") != "" {
		logOut = os.Stderr
	}
	log := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: cfg.LogLevel}))
	srv := httptest.NewUnstartedServer(nil)
	// PUBLIC_URL must name the real test address so emailed links work.
	cfg.PublicURL = "http://" + srv.Listener.Addr().String()
	if v, ok := env["PUBLIC_URL"]; ok {
		cfg.PublicURL = v
	}
	a, err := app.Build(ctx, cfg, pool, log)
	if err != nil {
		t.Fatalf("apptest: build: %v", err)
	}
	if o.now != nil {
		a.Auth.SetClock(o.now)
	}
	srv.Config.Handler = a.Handler
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		if err := a.Close(); err != nil {
			t.Logf("apptest: close: %v", err)
		}
	})
	return &Server{URL: srv.URL, DBURL: dbURL, App: a, Env: vars}
}

// Client is a browser-like API client: it keeps cookies and sends the CSRF
// header the web app sends (the vc_csrf cookie echoed as X-CSRF-Token).
type Client struct {
	t    testing.TB
	base string
	HTTP *http.Client
}

// Client returns a new client with an empty cookie jar.
func (s *Server) Client(t testing.TB) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{t: t, base: s.URL, HTTP: &http.Client{
		Jar: jar,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

// ForServer returns a client for another instance sharing this client's
// cookies, as a browser would behind a load balancer.
func (c *Client) ForServer(s *Server) *Client {
	other := *c
	other.base = s.URL
	// Cookies are per host: copy them to the other instance's address.
	from, _ := url.Parse(c.base)
	to, _ := url.Parse(s.URL)
	other.HTTP = &http.Client{Jar: c.HTTP.Jar, CheckRedirect: c.HTTP.CheckRedirect}
	c.HTTP.Jar.SetCookies(to, c.HTTP.Jar.Cookies(from))
	return &other
}

// Response is a decoded API answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test on error.
func (r Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// ErrorMessage returns the pt-BR message of an error response.
func (r Response) ErrorMessage() string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Message
}

// Do sends a JSON request (body nil for none) and returns the answer.
func (c *Client) Do(method, path string, body any) Response {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatalf("encode: %v", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatalf("request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.Send(req)
}

// Send sends req with cookies and the CSRF header.
func (c *Client) Send(req *http.Request) Response {
	c.t.Helper()
	if u, err := url.Parse(c.base); err == nil {
		for _, ck := range c.HTTP.Jar.Cookies(u) {
			if ck.Name == "vc_csrf" {
				req.Header.Set("X-CSRF-Token", ck.Value)
			}
		}
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// URLFor returns the absolute URL of path on this client's server.
func (c *Client) URLFor(path string) string { return c.base + path }
