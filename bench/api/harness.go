// Package api is `make bench-api`: the one harness for API speed figures. It
// seeds realistic volumes in a fresh database, starts the floor server (bare
// pgx pool + net/http running each endpoint's own SQL, see floor.go) and the
// real server (core/app through apptest, request logging on as in
// production) on that database, loads both with the same closed-loop
// generator, concurrency and duration in alternating rounds, and prints
// throughput and p50/p99 for both sides with their ratios and targets. The
// plugin row's floor is a bare go-plugin gRPC call to the same plugin binary
// (plugin.go).
//
// It is a benchmark, not a test: TestSmoke only checks, on a tiny data set,
// that the harness runs and both sides answer every endpoint.
package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// Config sizes one run.
type Config struct {
	Users        int           // seeded users, each with a session, profile, points and notifications
	Notifs       int           // notifications per user
	Ledger       int           // points ledger rows per user
	CheckinUsers int           // fresh users per real check-in phase, twice as many for the floor (one check-in per user-day)
	NewsItems    int           // published news items for the news-list row
	FeedPosts    int           // published community posts for the feed rows
	FeedComments int           // comments on those posts
	Courses      int           // published courses for the course-list row
	CourseEnrols int           // enrolments in those courses, spread over the readers
	Videos       int           // published videos for the video-list row
	Concurrency  int           // closed-loop clients
	Duration     time.Duration // per phase (one endpoint, one side, one round)
	Warmup       time.Duration // per side and endpoint, before the first round, not measured
	Rounds       int
	// SessionRefresh is the age at which the real side's sessions are
	// opened again (default 10 minutes): the real server's access tokens
	// live 15 (auth's AccessTTL) and a full run lasts longer, so the bench
	// renews them, as the app does, before they expire.
	SessionRefresh time.Duration
	// Only, when set, measures only the endpoints whose name contains it
	// (BENCH_API_ONLY="news list", BENCH_API_ONLY=feed), and seeds only what
	// they read.
	Only string
	// Rows, when set, measures only the endpoints with these exact names
	// (the cost-growth run, growth.go), after Only.
	Rows []string
	// DBParams is appended to both servers' database URL (e.g.
	// "pool_max_conns=16"); both sides always get the same pool settings.
	DBParams string
	// LogFile receives the real server's request log (as in production, at
	// info); nil discards the lines after formatting them.
	LogFile *os.File
}

// DefaultConfig is the full run; BENCH_API_* variables override it.
func DefaultConfig() Config {
	c := Config{Users: 5000, Notifs: 20, Ledger: 10, CheckinUsers: 15000, NewsItems: 10000,
		FeedPosts: 100_000, FeedComments: 1_000_000, Courses: 10_000, CourseEnrols: 100_000, Videos: 10_000, Concurrency: 32, Duration: 10 * time.Second, Warmup: 2 * time.Second, Rounds: 3,
		SessionRefresh: 10 * time.Minute}
	envInt := func(name string, dst *int) {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
			*dst = n
		}
	}
	envInt("BENCH_API_USERS", &c.Users)
	envInt("BENCH_API_CHECKIN_USERS", &c.CheckinUsers)
	envInt("BENCH_API_NEWS", &c.NewsItems)
	envInt("BENCH_API_POSTS", &c.FeedPosts)
	envInt("BENCH_API_COMMENTS", &c.FeedComments)
	envInt("BENCH_API_COURSES", &c.Courses)
	envInt("BENCH_API_COURSE_ENROLMENTS", &c.CourseEnrols)
	envInt("BENCH_API_VIDEOS", &c.Videos)
	envInt("BENCH_API_CONCURRENCY", &c.Concurrency)
	envInt("BENCH_API_ROUNDS", &c.Rounds)
	if d, err := time.ParseDuration(os.Getenv("BENCH_API_DURATION")); err == nil && d > 0 {
		c.Duration = d
	}
	if d, err := time.ParseDuration(os.Getenv("BENCH_API_SESSION_REFRESH")); err == nil && d > 0 {
		c.SessionRefresh = d
	}
	c.DBParams = os.Getenv("BENCH_API_DB_PARAMS")
	c.Only = os.Getenv("BENCH_API_ONLY")
	return c
}

// Endpoint is one row of the table.
type Endpoint struct {
	Name   string
	Method string
	Path   string
	Status int     // the success status both sides must answer
	Write  bool    // check-in: one fresh user per request
	MinRPS float64 // target: real throughput ≥ MinRPS × floor's
	MaxP99 float64 // target: real p99 ≤ MaxP99 × floor's (0: none)
}

// Endpoints are the rows measured; the content, courses, videos and community
// endpoints add theirs here.
var Endpoints = []Endpoint{
	{Name: "points balance", Method: "GET", Path: "/api/points/balance", Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	{Name: "session", Method: "GET", Path: "/api/auth/session", Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	{Name: "profile", Method: "GET", Path: "/api/profile", Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	{Name: "notifications", Method: "GET", Path: "/api/notifications", Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	{Name: "check-in", Method: "POST", Path: "/api/checkin", Status: 201, Write: true, MinRPS: 0.60},
	// A plugin call may cost at most 1.25× the bare gRPC echo: 80 % of its
	// throughput, 1.25× its p99. The real server confines its plugin
	// (PLUGIN_SANDBOX's default: own user, Landlock, seccomp, limits) and
	// the floor's runs bare, so the row measures the confinement's cost too.
	{Name: "plugin call (confined)", Method: "GET", Path: "/api/tools/" + fixturePlugin + "/echo?q=oi", Status: 200, MinRPS: 0.80, MaxP99: 1.25},
	// The public news list, 20 items with the reader's flags, on NewsItems published items.
	{Name: "news list", Method: "GET", Path: "/api/content/" + newsPlugin + "?limit=20", Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	// The community feed's first page, 20 posts with authors, counters, the
	// reader's like and pictures, on FeedPosts posts and FeedComments
	// comments: everyone's posts, and the reader's network (feed.go).
	{Name: "feed todos", Method: "GET", Path: feedPath + "?tab=todos&limit=20", Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	{Name: "feed conexoes", Method: "GET", Path: feedPath + "?tab=conexoes&limit=20", Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	// The course catalogue for a signed-in learner: level filter, popular
	// sort, a page of 20 with the reader's progress and favorites, on
	// Courses courses and CourseEnrols enrolments (courses.go).
	{Name: "course list", Method: "GET", Path: coursesPath + coursesQuery, Status: 200, MinRPS: 0.70, MaxP99: 1.3},
	// The exclusive videos' first page (8 cards with the reader's favorites,
	// like, progress and completion) for a premium reader, on Videos
	// videos (videos.go).
	{Name: "video list", Method: "GET", Path: videosPath, Status: 200, MinRPS: 0.70, MaxP99: 1.3},
}

// Row is one endpoint's figures over every round.
type Row struct {
	Endpoint    Endpoint
	Floor, Real *stats
	// ShapeDiff lists top-level JSON keys present on one side only.
	ShapeDiff []string
	// Answers are the bodies of the shape check's requests, by side.
	Answers map[string][]byte
}

// Met reports whether the real server meets the row's targets.
func (r Row) Met() bool {
	if r.Floor.RPS() == 0 || r.Real.RPS() < r.Endpoint.MinRPS*r.Floor.RPS() {
		return false
	}
	return r.Endpoint.MaxP99 == 0 || float64(r.Real.Quantile(0.99)) <= r.Endpoint.MaxP99*float64(r.Floor.Quantile(0.99))
}

// Report is a whole run.
type Report struct {
	Config Config
	Rows   []Row
}

type side struct {
	name string
	url  string
	hc   *http.Client
}

// Run seeds a fresh database, starts both servers and measures every endpoint.
func Run(t testing.TB, cfg Config) Report {
	t.Helper()
	ctx := context.Background()
	url := pgtest.NewURL(t)
	if cfg.DBParams != "" {
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		url += sep + cfg.DBParams
	}
	endpoints := Endpoints
	if cfg.Only != "" {
		endpoints = nil
		for _, ep := range Endpoints {
			if strings.Contains(ep.Name, cfg.Only) {
				endpoints = append(endpoints, ep)
			}
		}
	}
	if cfg.Rows != nil {
		endpoints = slices.DeleteFunc(slices.Clone(endpoints), func(ep Endpoint) bool { return !slices.Contains(cfg.Rows, ep.Name) })
	}
	// The real server: production wiring (apptest builds core/app), request
	// log at info as in production. apptest writes its log to os.Stderr when
	// APPTEST_LOG is set, so stderr points at cfg.LogFile while it builds its
	// logger; without a file the lines are formatted and discarded.
	pluginDir, pluginPath := buildPlugin(t)
	env := map[string]string{"LOG_LEVEL": "info", "PLUGINS_DIR": pluginDir}
	// A write row runs against production's workflow engine: the check-in's
	// durable work goes through its outbox, relayed to an embedded Temporal
	// server, as in production (without one it is credited inline).
	// BENCH_API_NO_TEMPORAL=1 measures the inline mode instead, to show what
	// the outbox, its relay and the workflow starts cost on this machine.
	if tt, ok := t.(*testing.T); ok && os.Getenv("BENCH_API_NO_TEMPORAL") != "1" &&
		slices.ContainsFunc(endpoints, func(ep Endpoint) bool { return ep.Write }) {
		env["TEMPORAL_ADDRESS"] = apptest.TemporalDev(tt).Addr
	}
	var realSrv *apptest.Server
	if cfg.LogFile != nil {
		t.Setenv("APPTEST_LOG", "1")
		saved := os.Stderr
		os.Stderr = cfg.LogFile
		realSrv = apptest.StartOn(t, url, env)
		os.Stderr = saved
	} else {
		realSrv = apptest.StartOn(t, url, env)
	}

	// Seed only what the measured rows read: check-in users for a write
	// row, news items and the feed for theirs.
	writes := slices.ContainsFunc(endpoints, func(ep Endpoint) bool { return ep.Write })
	reads := func(prefix string) bool {
		return slices.ContainsFunc(endpoints, func(ep Endpoint) bool { return strings.HasPrefix(ep.Path, prefix) })
	}

	start := time.Now()
	readers := seedUsers(t, ctx, realSrv, cfg.Users, "u", cfg, true, true)
	readersOpened := time.Now()
	// Fresh users for every check-in phase: the real side needs sessions,
	// the floor only a token in its map.
	checkins := map[string][][]benchUser{}
	for _, s := range []string{"floor", "real"} {
		for r := range cfg.Rounds + 1 { // +1: the shape check's spare users
			if !writes {
				break
			}
			n := cfg.CheckinUsers
			if s == "floor" {
				// Users without sessions cost the seed little, and the
				// floor goes through them faster.
				n *= 2
			}
			if r == cfg.Rounds {
				n = 1
			}
			checkins[s] = append(checkins[s], seedUsers(t, ctx, realSrv, n, fmt.Sprintf("c%s%d-", s[:1], r), cfg, false, s == "real"))
		}
	}
	if reads("/api/content/" + newsPlugin) {
		seedNews(t, ctx, realSrv.App.Pool, cfg.NewsItems, readers)
	}
	perRound := 0
	if writes {
		perRound = cfg.CheckinUsers
	}
	t.Logf("bench-api: seeded %d users (%d notifications, %d ledger rows each) and %d+%d check-in users per round in %s",
		cfg.Users, cfg.Notifs, cfg.Ledger, 2*perRound, perRound, time.Since(start).Round(time.Millisecond))
	if reads(coursesPath) {
		cstart := time.Now()
		seedCourses(t, ctx, realSrv.App.Pool, cfg.Courses, cfg.CourseEnrols, readers)
		t.Logf("bench-api: seeded %d courses and %d enrolments in %s", cfg.Courses, cfg.CourseEnrols, time.Since(cstart).Round(time.Millisecond))
	}
	if reads(videosPath) {
		vstart := time.Now()
		seedVideos(t, ctx, realSrv.App.Pool, cfg.Videos, readers)
		t.Logf("bench-api: seeded %d videos in %s", cfg.Videos, time.Since(vstart).Round(time.Millisecond))
	}
	if reads(feedPath) {
		fstart := time.Now()
		seedFeed(t, ctx, realSrv.App.Pool, cfg.FeedPosts, cfg.FeedComments, readers)
		t.Logf("bench-api: seeded the feed (%d posts, %d comments, likes, pictures, connections) in %s",
			cfg.FeedPosts, cfg.FeedComments, time.Since(fstart).Round(time.Millisecond))
	}
	if _, err := realSrv.App.Pool.Exec(ctx, "ANALYZE"); err != nil {
		t.Fatalf("bench-api: analyze: %v", err)
	}

	checkinsOpened := readersOpened
	// Seeding the larger volumes outlasts a session: renew what is old.
	if time.Since(readersOpened) > cfg.SessionRefresh {
		openSessions(t, ctx, realSrv, readers)
		for _, list := range checkins["real"] {
			openSessions(t, ctx, realSrv, list)
		}
		readersOpened, checkinsOpened = time.Now(), time.Now()
	}
	tokens := map[string]string{}
	for _, u := range readers {
		tokens[u.token] = u.id
	}
	for _, list := range checkins["floor"] {
		for _, u := range list {
			tokens[u.token] = u.id
		}
	}
	fpool, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatalf("bench-api: floor pool: %v", err)
	}
	t.Cleanup(fpool.Close)
	fsrv := httptest.NewServer(newFloorHandler(fpool, tokens, startBarePlugin(t, pluginPath)))
	t.Cleanup(fsrv.Close)

	client := func() *http.Client {
		return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Concurrency * 2, MaxConnsPerHost: cfg.Concurrency * 2}}
	}
	sides := []side{{"floor", fsrv.URL, client()}, {"real", realSrv.URL, client()}}
	// The floor keeps the first tokens (its map never expires them); the
	// real side's readers are renewed in place once cfg.SessionRefresh old.
	floorReaders := slices.Clone(readers)
	readersOf := func(s side) []benchUser {
		if s.name == "floor" {
			return floorReaders
		}
		return readers
	}

	rows := make([]Row, len(endpoints))
	for i, ep := range endpoints {
		rows[i] = Row{Endpoint: ep, Floor: &stats{}, Real: &stats{}}
		var spare map[string]benchUser
		if ep.Write {
			spare = map[string]benchUser{"floor": checkins["floor"][cfg.Rounds][0], "real": checkins["real"][cfg.Rounds][0]}
		}
		rows[i].ShapeDiff, rows[i].Answers = shapeDiff(t, ep, sides, readers[0], spare)
	}
	// BENCH_API_COLD_CHECKIN=1 measures check-ins whose session no earlier
	// request resolved (each pays the session lookup and its roles).
	coldCheckins := os.Getenv("BENCH_API_COLD_CHECKIN") == "1"
	// Warm-up: connections, caches and buffer pools, on reads only (check-ins would use up fresh users).
	for _, s := range sides {
		for _, ep := range endpoints {
			if !ep.Write {
				load(ctx, s.hc, cfg.Concurrency, cfg.Warmup, ep.Status, readNext(ep, s.url, readersOf(s)))
			}
		}
	}
	for r := range cfg.Rounds {
		for i, ep := range endpoints {
			order := sides
			if (r+i)%2 == 1 { // alternate who goes first, so neither always follows the other
				order = []side{sides[1], sides[0]}
			}
			if !ep.Write && time.Since(readersOpened) > cfg.SessionRefresh {
				// New sessions, then a warm-up so that resolving them is
				// not measured.
				openSessions(t, ctx, realSrv, readers)
				readersOpened = time.Now()
				load(ctx, sides[1].hc, cfg.Concurrency, cfg.Warmup, ep.Status, readNext(ep, realSrv.URL, readers))
			}
			if ep.Write && time.Since(checkinsOpened) > cfg.SessionRefresh {
				for _, list := range checkins["real"][r:] {
					openSessions(t, ctx, realSrv, list)
				}
				checkinsOpened = time.Now()
			}
			for _, s := range order {
				var next func() (*http.Request, bool)
				if ep.Write {
					if s.name == "real" && !coldCheckins {
						// A member taps "Check-in" on the card the app
						// has just loaded: each user's card is read first,
						// so the session is resolved as it would be. The
						// floor authenticates from a map and needs none.
						card := Endpoint{Method: "GET", Path: "/api/checkin"}
						if w := load(ctx, s.hc, cfg.Concurrency, time.Minute, http.StatusOK, writeNext(card, s.url, checkins[s.name][r])); w.Errors > 0 {
							t.Fatalf("bench-api: %d check-in card reads failed before round %d", w.Errors, r+1)
						}
					}
					next = writeNext(ep, s.url, checkins[s.name][r])
				} else {
					next = readNext(ep, s.url, readersOf(s))
				}
				p := load(ctx, s.hc, cfg.Concurrency, cfg.Duration, ep.Status, next)
				st := rows[i].Real
				if s.name == "floor" {
					st = rows[i].Floor
				}
				st.add(p)
				t.Logf("round %d %-15s %-5s %8.0f req/s (%d ok, %d errors, %s)", r+1, ep.Name, s.name,
					float64(p.OK)/p.Elapsed.Seconds(), p.OK, p.Errors, p.Elapsed.Round(time.Millisecond))
			}
		}
	}
	return Report{Config: cfg, Rows: rows}
}

type benchUser struct{ id, token string }

// openSessions gives each user a session opened through the real auth
// service, replacing any token it had.
func openSessions(t testing.TB, ctx context.Context, srv *apptest.Server, users []benchUser) {
	t.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(users) {
					return
				}
				tok, err := srv.App.Auth.StartSession(ctx, users[i].id, "bench-api")
				if err != nil {
					errs <- err
					return
				}
				users[i].token = tok.Access
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatalf("bench-api: sessions: %v", err)
	}
}

// seedUsers inserts n users with a filled-in profile in bulk. With sessions,
// each gets a session opened through the real auth service (the real server
// must resolve their tokens); without, a token only the floor's map knows.
// Readers also get ledger rows with their totals and notifications.
func seedUsers(t testing.TB, ctx context.Context, srv *apptest.Server, n int, prefix string, cfg Config, reader, sessions bool) []benchUser {
	t.Helper()
	pool := srv.App.Pool
	rows, err := pool.Query(ctx, `INSERT INTO users (email, email_confirmed_at)
		SELECT 'bench-' || $1 || g || '@bench.example', now() FROM generate_series(1, $2) g RETURNING id::text`, prefix, n)
	if err != nil {
		t.Fatalf("bench-api: users: %v", err)
	}
	var users []benchUser
	for rows.Next() {
		var u benchUser
		if err := rows.Scan(&u.id); err != nil {
			t.Fatalf("bench-api: users: %v", err)
		}
		users = append(users, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatalf("bench-api: users: %v", err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO profiles (user_id, first_name, last_name, title, biography, specialties, crmv, has_crmv, phone, time_zone)
		SELECT id, 'Ana', 'Souza ' || left(id::text, 8), 'Médica veterinária', repeat('Clínica de pequenos animais. ', 12),
		       ARRAY['clinica_geral', 'dermatologia'], 'CRMV-SP ' || (10000 + (random() * 80000)::int), true, '11987654321', $2
		FROM users WHERE email LIKE 'bench-' || $1 || '%'`, prefix, checkinZone); err != nil {
		t.Fatalf("bench-api: profiles: %v", err)
	}
	if reader {
		seedReaderData(t, ctx, pool, prefix, cfg)
	}
	if !sessions {
		for i := range users {
			users[i].token = "floor-" + users[i].id
		}
		return users
	}
	openSessions(t, ctx, srv, users)
	return users
}

func seedReaderData(t testing.TB, ctx context.Context, pool *pgxpool.Pool, prefix string, cfg Config) {
	t.Helper()
	steps := []struct {
		what, sql string
		args      []any
	}{
		{"ledger", `INSERT INTO points_ledger (user_id, amount, kind, idempotency_key, metadata, created_at)
			SELECT u.id, (ARRAY[5, 10, 20, 50])[1 + g % 4], (ARRAY['checkin', 'post', 'course', 'challenge'])[1 + g % 4],
			       'bench:' || u.id || ':' || g, jsonb_build_object('seed', g), now() - make_interval(hours => g)
			FROM users u, generate_series(1, $2) g WHERE u.email LIKE 'bench-' || $1 || '%'`, []any{prefix, cfg.Ledger}},
		{"totals", `INSERT INTO user_total_points (user_id, checkin_points, post_points, course_points, challenge_points)
			SELECT l.user_id, coalesce(sum(l.amount) FILTER (WHERE l.kind = 'checkin'), 0),
			       coalesce(sum(l.amount) FILTER (WHERE l.kind = 'post'), 0),
			       coalesce(sum(l.amount) FILTER (WHERE l.kind = 'course'), 0),
			       coalesce(sum(l.amount) FILTER (WHERE l.kind = 'challenge'), 0)
			FROM points_ledger l JOIN users u ON u.id = l.user_id
			WHERE u.email LIKE 'bench-' || $1 || '%'
			GROUP BY l.user_id`, []any{prefix}},
		{"notifications", `INSERT INTO notifications (user_id, type, title, message, is_read, created_at)
			SELECT u.id, 'points', 'Você ganhou VetCoins', 'Você recebeu ' || g || ' VetCoins pela sua participação na comunidade.',
			       g > 5, now() - make_interval(mins => g * 37)
			FROM users u, generate_series(1, $2) g WHERE u.email LIKE 'bench-' || $1 || '%'`, []any{prefix, cfg.Notifs}},
	}
	for _, s := range steps {
		if _, err := pool.Exec(ctx, s.sql, s.args...); err != nil {
			t.Fatalf("bench-api: %s: %v", s.what, err)
		}
	}
}

func newRequest(ep Endpoint, base, token string) *http.Request {
	req, err := http.NewRequest(ep.Method, base+ep.Path, nil)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// readNext spreads reads over every seeded user.
func readNext(ep Endpoint, base string, users []benchUser) func() (*http.Request, bool) {
	var n atomic.Uint64
	return func() (*http.Request, bool) {
		i := n.Add(7919) % uint64(len(users)) // a prime stride: consecutive requests hit different users
		return newRequest(ep, base, users[i].token), true
	}
}

// writeNext gives each check-in a user who has not checked in today.
func writeNext(ep Endpoint, base string, users []benchUser) func() (*http.Request, bool) {
	var n atomic.Int64
	return func() (*http.Request, bool) {
		i := n.Add(1) - 1
		if i >= int64(len(users)) {
			return nil, false
		}
		return newRequest(ep, base, users[i].token), true
	}
}

// shapeDiff sends one request to each side and returns the top-level JSON
// keys only one side answers with, so a floor that drifted from the real
// endpoint shows in the table, and the answers by side.
func shapeDiff(t testing.TB, ep Endpoint, sides []side, reader benchUser, spare map[string]benchUser) ([]string, map[string][]byte) {
	t.Helper()
	keys := map[string][]string{}
	answers := map[string][]byte{}
	for _, s := range sides {
		u := reader
		if ep.Write {
			u = spare[s.name]
		}
		res, err := s.hc.Do(newRequest(ep, s.url, u.token))
		if err != nil {
			t.Fatalf("bench-api: %s %s: %v", s.name, ep.Path, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != ep.Status {
			t.Fatalf("bench-api: %s %s %s: %s %s", s.name, ep.Method, ep.Path, res.Status, body)
		}
		answers[s.name] = body
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("bench-api: %s %s: not a JSON object: %s", s.name, ep.Path, body)
		}
		for k, v := range m {
			keys[s.name] = append(keys[s.name], k)
			// One level down for wrapped answers ({"user": {...}}).
			var inner map[string]json.RawMessage
			if json.Unmarshal(v, &inner) == nil {
				for ik := range inner {
					keys[s.name] = append(keys[s.name], k+"."+ik)
				}
			}
			var list []map[string]json.RawMessage
			if json.Unmarshal(v, &list) == nil && len(list) > 0 {
				for ik := range list[0] {
					keys[s.name] = append(keys[s.name], k+"[]."+ik)
				}
			}
		}
	}
	var diff []string
	for _, k := range keys["floor"] {
		if !slices.Contains(keys["real"], k) {
			diff = append(diff, "floor only: "+k)
		}
	}
	for _, k := range keys["real"] {
		if !slices.Contains(keys["floor"], k) {
			diff = append(diff, "real only: "+k)
		}
	}
	slices.Sort(diff)
	return diff, answers
}

// Print writes the ratio table.
func (rep Report) Print(w io.Writer) {
	c := rep.Config
	fmt.Fprintf(w, "\nbench-api: %d users, %d concurrent clients, %d round(s) of %s per endpoint and side (floor and real alternating)\n\n",
		c.Users, c.Concurrency, c.Rounds, c.Duration)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tfloor req/s\treal req/s\tratio\tfloor p50/p99\treal p50/p99\tp99 ratio\ttarget\tmet?\t")
	ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) }
	for _, r := range rep.Rows {
		f, re := r.Floor, r.Real
		ratio, p99 := 0.0, 0.0
		if f.RPS() > 0 {
			ratio = re.RPS() / f.RPS()
		}
		if f.Quantile(0.99) > 0 {
			p99 = float64(re.Quantile(0.99)) / float64(f.Quantile(0.99))
		}
		target := fmt.Sprintf("≥%.0f %%", r.Endpoint.MinRPS*100)
		if r.Endpoint.MaxP99 > 0 {
			target += fmt.Sprintf(", ≤%g×", r.Endpoint.MaxP99)
		}
		met := "no"
		if r.Met() {
			met = "yes"
		}
		fmt.Fprintf(tw, "%s %s\t%.0f\t%.0f\t%.0f %%\t%s/%s ms\t%s/%s ms\t%.2f×\t%s\t%s\t\n",
			r.Endpoint.Method, r.Endpoint.Path, f.RPS(), re.RPS(), ratio*100, ms(f.Quantile(0.5)), ms(f.Quantile(0.99)),
			ms(re.Quantile(0.5)), ms(re.Quantile(0.99)), p99, target, met)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, r := range rep.Rows {
		for _, s := range []struct {
			name string
			st   *stats
		}{{"floor", r.Floor}, {"real", r.Real}} {
			if s.st.Errors > 0 {
				fmt.Fprintf(w, "%s %s: %d failed requests (first: %s)\n", r.Endpoint.Path, s.name, s.st.Errors, s.st.FirstErr)
			}
			if s.st.Exhausted {
				fmt.Fprintf(w, "%s %s: ran out of fresh users before the phase's end (raise BENCH_API_CHECKIN_USERS); rate is over %s\n",
					r.Endpoint.Path, s.name, s.st.Elapsed.Round(time.Millisecond))
			}
		}
		if len(r.ShapeDiff) > 0 {
			fmt.Fprintf(w, "%s: floor and real answers differ in shape: %s\n", r.Endpoint.Path, strings.Join(r.ShapeDiff, ", "))
		}
	}
}
