// Package scaleout tests VetClube as it runs in production: several `vetclube
// serve` processes and a `vetclube worker` on one PostgreSQL and one
// Temporal, behind a load balancer.
package scaleout_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/roles"
)

// freePort is a port nothing listens on now.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func moduleRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the module root")
	}
	return filepath.Join(filepath.Dir(file), "..")
}

// buildServer is VETCLUBE_BIN (make test builds bin/vetclube first), or
// cmd/vetclube built for the test.
func buildServer(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("VETCLUBE_BIN"); bin != "" {
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	bin := filepath.Join(t.TempDir(), "vetclube")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/vetclube")
	cmd.Dir = moduleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build vetclube: %v\n%s", err, out)
	}
	return bin
}

// buildPlugin builds the comunidade plugin (community posts are its content
// type) into a plugins directory, with the checksum the host checks.
func buildPlugin(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "comunidade")
	cmd := exec.Command("go", "build", "-o", bin, "./plugins/comunidade")
	cmd.Dir = moduleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build plugin: %v\n%s", err, out)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if err := os.WriteFile(bin+".sha256", []byte(hex.EncodeToString(sum[:])+"  comunidade\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// process is one `vetclube serve` or `vetclube worker`.
type process struct {
	t    *testing.T
	name string
	bin  string
	args []string
	env  []string
	addr string // HTTP address, "" for the worker
	logf string

	cmd    *exec.Cmd
	exited chan error
}

func (p *process) start() {
	p.t.Helper()
	f, err := os.OpenFile(p.logf, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		p.t.Fatal(err)
	}
	p.cmd = exec.Command(p.bin, p.args...)
	p.cmd.Env = p.env
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		p.t.Fatalf("start %s: %v", p.name, err)
	}
	p.exited = make(chan error, 1)
	go func() { p.exited <- p.cmd.Wait(); f.Close() }()
	if p.addr == "" {
		return
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		res, err := http.Get("http://" + p.addr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-p.exited:
			p.t.Fatalf("%s exited while starting: %v\n%s", p.name, err, tail(p.logf))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s never became ready\n%s", p.name, tail(p.logf))
		}
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *process) stop() time.Duration {
	p.t.Helper()
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatalf("SIGTERM %s: %v", p.name, err)
	}
	select {
	case err := <-p.exited:
		if err != nil {
			p.t.Errorf("%s exited with %v\n%s", p.name, err, tail(p.logf))
		}
	case <-time.After(60 * time.Second):
		_ = p.cmd.Process.Kill()
		p.t.Fatalf("%s did not stop within 60 s\n%s", p.name, tail(p.logf))
	}
	return time.Since(start)
}

func (p *process) kill() {
	if p.cmd != nil && p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// balancer is the load balancer of the test: round robin over the
// instances whose /readyz answers 200 (checked every 100 ms), and a retry on
// another instance of a request that failed on its connection, only when
// the request is idempotent (a read, PUT, DELETE, or a write carrying an
// Idempotency-Key) or never reached the instance (connection refused).
type balancer struct {
	backends []string
	ready    []atomic.Bool
	next     atomic.Uint64
	retries  atomic.Int64
	base     http.RoundTripper
	stop     chan struct{}
}

func newBalancer(backends []string) *balancer {
	b := &balancer{backends: backends, ready: make([]atomic.Bool, len(backends)), stop: make(chan struct{}),
		base: &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 30 * time.Second}}
	b.check()
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-tick.C:
				b.check()
			}
		}
	}()
	return b
}

func (b *balancer) check() {
	c := http.Client{Timeout: time.Second}
	for i, addr := range b.backends {
		res, err := c.Get("http://" + addr + "/readyz")
		ok := err == nil && res.StatusCode == http.StatusOK
		if err == nil {
			res.Body.Close()
		}
		b.ready[i].Store(ok)
	}
}

// pick is the next ready instance other than avoid (any, when none is ready).
func (b *balancer) pick(avoid string) string {
	n := len(b.backends)
	start := int(b.next.Add(1))
	for k := 0; k < n; k++ {
		i := (start + k) % n
		if b.ready[i].Load() && b.backends[i] != avoid {
			return b.backends[i]
		}
	}
	for k := 0; k < n; k++ {
		if i := (start + k) % n; b.ready[i].Load() {
			return b.backends[i]
		}
	}
	return b.backends[start%n]
}

func (b *balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	idempotent := req.Method == http.MethodGet || req.Method == http.MethodHead || req.Method == http.MethodPut ||
		req.Method == http.MethodDelete || req.Method == http.MethodOptions || req.Header.Get("Idempotency-Key") != ""
	last := ""
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		if attempt > 0 {
			b.retries.Add(1)
			time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
		}
		host := b.pick(last)
		last = host
		out := req.Clone(req.Context())
		out.URL.Scheme, out.URL.Host = "http", host
		out.Body = io.NopCloser(bytes.NewReader(body))
		if body == nil {
			out.Body = nil
		}
		var res *http.Response
		res, err = b.base.RoundTrip(out)
		if err == nil {
			return res, nil
		}
		var op *net.OpError
		refused := errors.As(err, &op) && op.Op == "dial"
		if !idempotent && !refused {
			return nil, err
		}
	}
	return nil, err
}

// member is a signed-in user's credentials.
type member struct {
	id     string
	email  string
	tokens auth.Tokens
}

func (m member) sign(req *http.Request) {
	req.AddCookie(&http.Cookie{Name: auth.CookieAccess, Value: m.tokens.Access})
	req.AddCookie(&http.Cookie{Name: auth.CookieCSRF, Value: m.tokens.CSRF})
	req.Header.Set("X-CSRF-Token", m.tokens.CSRF)
}

// Two instances restarted in turn under load lose nothing: no request
// fails (idempotent ones may be retried on the other instance), live-event
// streams come back on the other instance and miss no event, an upload
// begun on one instance is finished on the other, and a role change is
// seen by both within a second.
func TestRollingRestartOfTwoInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real server processes")
	}
	began := time.Now()
	bin := buildServer(t)
	plugins := buildPlugin(t)
	t.Logf("server and plugin built in %s", time.Since(began).Round(time.Millisecond))
	dbURL := pgtest.NewURL(t)
	temporal := apptest.TemporalDev(t)
	// An in-process instance on the same database makes the accounts.
	helper := apptest.StartOn(t, dbURL, nil)
	t.Logf("database, Temporal and helper ready at %s", time.Since(began).Round(time.Millisecond))
	ctx := context.Background()
	newMember := func(email string, roles ...string) member {
		id, _, err := helper.App.Auth.CreateConfirmedUser(ctx, auth.NewUser{Email: email, Password: apptest.TestPassword,
			FirstName: strings.Split(email, "@")[0], LastName: "Teste", Roles: roles})
		if err != nil {
			t.Fatal(err)
		}
		tokens, err := helper.App.Auth.StartVerifiedSession(ctx, id, "scaleout")
		if err != nil {
			t.Fatal(err)
		}
		return member{id: id, email: email, tokens: tokens}
	}

	data := t.TempDir() // shared: the tus files of uploads in progress
	logs := t.TempDir()
	baseEnv := append(os.Environ(),
		"APP_ENV=test", "DATABASE_URL="+dbURL, "DATA_DIR="+data, "TEMPORAL_ADDRESS="+temporal.Addr,
		"LOG_LEVEL=warn", "WEB_DIST="+t.TempDir(), "ADMIN_DIST="+t.TempDir(), "PLUGINS_DIR="+plugins,
		"SHUTDOWN_DELAY=1s", "SHUTDOWN_TIMEOUT=15s", "DEMO_MEDIA=false")
	var servers []*process
	var addrs []string
	for i := range 2 {
		addr := "127.0.0.1:" + strconv.Itoa(freePort(t))
		addrs = append(addrs, addr)
		servers = append(servers, &process{t: t, name: fmt.Sprintf("instance %d", i+1), bin: bin, args: []string{"serve"},
			env:  append(slices.Clone(baseEnv), "HTTP_ADDR="+addr, "TEMPORAL_WORKER=false", "PUBLIC_URL=http://"+addr),
			addr: addr, logf: filepath.Join(logs, fmt.Sprintf("instance%d.log", i+1))})
	}
	worker := &process{t: t, name: "worker", bin: bin, args: []string{"worker"}, env: baseEnv, logf: filepath.Join(logs, "worker.log")}
	t.Cleanup(func() {
		for _, p := range append(servers, worker) {
			p.kill()
		}
		if t.Failed() {
			for _, p := range append(servers, worker) {
				t.Logf("--- %s log:\n%s", p.name, tail(p.logf))
			}
		}
	})
	worker.start()
	for _, s := range servers {
		s.start()
	}
	t.Logf("worker and two instances ready at %s", time.Since(began).Round(time.Millisecond))
	lb := newBalancer(addrs)
	defer close(lb.stop)
	front := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.Out.URL.Scheme, r.Out.URL.Host = "http", addrs[0] },
		Transport:     lb,
		FlushInterval: -1,
	})
	defer front.Close()

	members := make([]member, 6)
	for i := range members {
		members[i] = newMember(fmt.Sprintf("carga%d@example.com", i))
	}
	checkins := make([]member, 40)
	for i := range checkins {
		checkins[i] = newMember(fmt.Sprintf("checkin%d@example.com", i))
	}
	watched := newMember("ouvinte@example.com")
	staff := newMember("editora@example.com", "editor")
	promoted := newMember("promovida@example.com")

	// Live events: one stream on each instance and one through the
	// balancer that reconnects (by Last-Event-ID) when its instance stops.
	streamCtx, stopStreams := context.WithCancel(ctx)
	defer stopStreams()
	direct := []*stream{openStream(streamCtx, t, "http://"+addrs[0], watched, false), openStream(streamCtx, t, "http://"+addrs[1], watched, false)}
	through := openStream(streamCtx, t, front.URL, watched, true)
	var pubMu sync.Mutex
	var published []int64
	publish := func(n int) int64 {
		id, err := events.Publish(ctx, helper.App.Pool, watched.id, "scaleout.test", map[string]int{"n": n})
		if err != nil {
			t.Error(err)
			return 0
		}
		pubMu.Lock()
		published = append(published, id)
		pubMu.Unlock()
		return id
	}
	first := publish(0)
	for _, s := range append(direct, through) {
		s.waitFor(t, first, 5*time.Second)
	}

	// An upload begun on instance 1 (creation and its first half)...
	pic := samplePNG(t)
	loc, assetID := createUpload(t, "http://"+addrs[0], staff, "foto.png", "image/png", len(pic))
	if st := patchUpload(t, "http://"+addrs[0]+loc, staff, 0, pic[:len(pic)/2]); st != http.StatusNoContent {
		t.Fatalf("first half on instance 1: %d", st)
	}

	// Load: reads and keyed writes through the balancer for the whole restart.
	var total, failed atomic.Int64
	var failures sync.Map
	loadCtx, stopLoad := context.WithCancel(ctx)
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 30 * time.Second}
	for w, m := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			posts := 0
			for n := 0; loadCtx.Err() == nil; n++ {
				var req *http.Request
				kind := n % 10
				// Posts are limited to 5 a minute per member: 4 each.
				if kind == 9 && (n%40 != 9 || posts == 4) {
					kind = 8
				}
				switch kind {
				case 0, 1, 2, 3:
					req, _ = http.NewRequest("GET", front.URL+"/api/profile", nil)
				case 4, 5, 6:
					req, _ = http.NewRequest("GET", front.URL+"/api/points/balance", nil)
				case 7, 8:
					req, _ = http.NewRequest("GET", front.URL+"/api/auth/session", nil)
				default:
					body, _ := json.Marshal(map[string]any{"content": fmt.Sprintf("Plantão tranquilo hoje, publicação %d da carga %d.", n, w)})
					req, _ = http.NewRequest("POST", front.URL+"/api/community/posts", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Idempotency-Key", fmt.Sprintf("carga-%d-%d", w, n))
					posts++
				}
				m.sign(req)
				total.Add(1)
				res, err := client.Do(req)
				if err != nil {
					failed.Add(1)
					failures.Store(req.Method+" "+req.URL.Path+": "+err.Error(), true)
				} else {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode >= 300 {
						failed.Add(1)
						failures.Store(fmt.Sprintf("%s %s: %d", req.Method, req.URL.Path, res.StatusCode), true)
					}
				}
				time.Sleep(15 * time.Millisecond)
			}
		}()
	}
	// Check-ins: writes without a key (never retried by the balancer), one
	// per member, spread over the restarts.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, m := range checkins {
			if loadCtx.Err() != nil {
				return
			}
			req, _ := http.NewRequest("POST", front.URL+"/api/checkin", nil)
			m.sign(req)
			total.Add(1)
			res, err := client.Do(req)
			if err != nil {
				failed.Add(1)
				failures.Store("POST /api/checkin: "+err.Error(), true)
			} else {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusCreated {
					failed.Add(1)
					failures.Store(fmt.Sprintf("POST /api/checkin: %d", res.StatusCode), true)
				}
			}
			time.Sleep(150 * time.Millisecond)
		}
	}()
	// Events keep coming during the restarts.
	var lastEvent atomic.Int64
	lastEvent.Store(first)
	evDone := make(chan struct{})
	go func() {
		defer close(evDone)
		for n := 1; loadCtx.Err() == nil; n++ {
			lastEvent.Store(publish(n))
			time.Sleep(200 * time.Millisecond)
		}
	}()

	time.Sleep(time.Second)
	t.Logf("load running at %s", time.Since(began).Round(time.Millisecond))
	for _, s := range servers {
		took := s.stop()
		t.Logf("%s stopped in %s", s.name, took.Round(time.Millisecond))
		start := time.Now()
		s.start()
		t.Logf("%s ready again in %s", s.name, time.Since(start).Round(time.Millisecond))
		time.Sleep(time.Second)
	}
	stopLoad()
	wg.Wait()
	<-evDone

	t.Logf("%d live events published during the restarts", len(published))
	t.Logf("%d requests through the balancer, %d retried on the other instance, %d failed", total.Load(), lb.retries.Load(), failed.Load())
	if failed.Load() > 0 {
		failures.Range(func(k, _ any) bool { t.Errorf("failed: %s", k); return true })
	}
	if total.Load() < 100 {
		t.Errorf("only %d requests were made", total.Load())
	}

	// The balancer's stream came back after each stop and missed nothing.
	through.waitFor(t, lastEvent.Load(), 10*time.Second)
	if gaps := through.missing(published); len(gaps) > 0 {
		t.Errorf("the stream through the balancer missed events %v", gaps)
	}
	if through.reconnects.Load() < 1 {
		t.Errorf("the stream through the balancer never reconnected (%d)", through.reconnects.Load())
	}
	// New streams on both (restarted) instances get the next event.
	direct = []*stream{openStream(streamCtx, t, "http://"+addrs[0], watched, false), openStream(streamCtx, t, "http://"+addrs[1], watched, false)}
	next := publish(-1)
	for _, s := range direct {
		s.waitFor(t, next, 5*time.Second)
	}

	// ...is finished on instance 2 (instance 1 has restarted meanwhile).
	if st := patchUpload(t, "http://"+addrs[1]+loc, staff, len(pic)/2, pic[len(pic)/2:]); st != http.StatusNoContent {
		t.Fatalf("second half on instance 2: %d", st)
	}
	var asset media.Asset
	getJSON(t, "http://"+addrs[0]+"/api/admin/media/"+assetID, staff, &asset)
	if asset.State != media.StateReady {
		t.Fatalf("upload finished on the other instance: %s", asset.State)
	}

	// A role granted is seen by both instances within a second.
	if _, err := roles.NewService(helper.App.Pool).Grant(ctx, promoted.email, "editor"); err != nil {
		t.Fatal(err)
	}
	granted := time.Now()
	for _, addr := range addrs {
		for {
			var s auth.SessionUser
			getJSON(t, "http://"+addr+"/api/auth/session", promoted, &s)
			if slices.Contains(s.Roles, "editor") {
				break
			}
			if time.Since(granted) > time.Second {
				t.Fatalf("instance %s still shows roles %v a second after the grant", addr, s.Roles)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	t.Logf("role change seen on both instances after %s", time.Since(granted).Round(time.Millisecond))
}

func getJSON(t *testing.T, url string, m member, v any) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	m.sign(req)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, body)
	}
	// Some answers wrap the object in {"user": …}.
	var wrapped map[string]json.RawMessage
	if json.Unmarshal(body, &wrapped) == nil {
		if inner, ok := wrapped["user"]; ok {
			body = inner
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v %s", url, err, body)
	}
}

func samplePNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 96, 64))
	for x := 0; x < 96; x++ {
		for y := 0; y < 64; y++ {
			img.Set(x, y, color.RGBA{uint8(x * 2), uint8(y * 3), 120, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func createUpload(t *testing.T, base string, m member, name, typ string, size int) (loc, assetID string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+media.UploadsPath, nil)
	m.sign(req)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Length", strconv.Itoa(size))
	req.Header.Set("Upload-Metadata", "filename "+base64.StdEncoding.EncodeToString([]byte(name))+",filetype "+base64.StdEncoding.EncodeToString([]byte(typ)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create upload: %d %s", res.StatusCode, body)
	}
	loc = res.Header.Get("Location")
	if i := strings.Index(loc, "/api/"); i > 0 {
		loc = loc[i:]
	}
	return loc, res.Header.Get(media.AssetIDHeader)
}

func patchUpload(t *testing.T, url string, m member, offset int, chunk []byte) int {
	t.Helper()
	req, _ := http.NewRequest("PATCH", url, bytes.NewReader(chunk))
	m.sign(req)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", strconv.Itoa(offset))
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Logf("PATCH %s: %d %s", url, res.StatusCode, body)
	}
	return res.StatusCode
}

// stream is an EventSource: it reads /api/events and, when reconnect is
// set, comes back with Last-Event-ID after the server ends the stream.
type stream struct {
	mu         sync.Mutex
	seen       map[int64]bool
	last       int64
	reconnects atomic.Int64
}

func openStream(ctx context.Context, t *testing.T, base string, m member, reconnect bool) *stream {
	s := &stream{seen: map[int64]bool{}, last: -1}
	connected := make(chan struct{})
	var once sync.Once
	go func() {
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events", nil)
			m.sign(req)
			s.mu.Lock()
			if s.last >= 0 {
				req.Header.Set("Last-Event-ID", strconv.FormatInt(s.last, 10))
			}
			s.mu.Unlock()
			res, err := http.DefaultClient.Do(req)
			if err == nil && res.StatusCode == http.StatusOK {
				once.Do(func() { close(connected) })
				sc := bufio.NewScanner(res.Body)
				for sc.Scan() {
					if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
						id, _ := strconv.ParseInt(v, 10, 64)
						s.mu.Lock()
						s.seen[id] = true
						s.last = max(s.last, id)
						s.mu.Unlock()
					}
				}
			}
			if res != nil {
				res.Body.Close()
			}
			if !reconnect || ctx.Err() != nil {
				return
			}
			s.reconnects.Add(1)
			time.Sleep(250 * time.Millisecond) // the server's retry hint
		}
	}()
	select {
	case <-connected:
	case <-time.After(10 * time.Second):
		t.Fatalf("event stream at %s never connected", base)
	}
	return s
}

func (s *stream) waitFor(t *testing.T, id int64, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		s.mu.Lock()
		ok := s.seen[id]
		s.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("event %d never reached the stream", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// missing lists the events of ids the stream never got.
func (s *stream) missing(ids []int64) []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int64
	for _, id := range ids {
		if !s.seen[id] {
			out = append(out, id)
		}
	}
	return out
}
