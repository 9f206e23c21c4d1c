package community_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/community"
)

// pluginDir holds the real comunidade plugin, built once for the package.
var pluginDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "comunidade-plugin-")
	if err != nil {
		panic(err)
	}
	bin := filepath.Join(dir, "comunidade")
	cmd := exec.Command("go", "build", "-o", bin, "../../plugins/comunidade")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic(fmt.Sprintf("build plugin: %v", err))
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(data)
	if err := os.WriteFile(bin+".sha256", []byte(hex.EncodeToString(sum[:])+"  comunidade\n"), 0o644); err != nil {
		panic(err)
	}
	pluginDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// env is a running app with the comunidade plugin loaded and a settable
// clock for the content platform (and so for the community service).
type env struct {
	srv   *apptest.Server
	clock *atomic.Int64
	ctx   context.Context
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginDir})
	if _, ok := srv.App.Content.Registry.Get(community.TypeID); !ok {
		t.Fatal("the comunidade plugin did not register the posts type")
	}
	e := &env{srv: srv, clock: &atomic.Int64{}, ctx: context.Background()}
	// Mid-afternoon in São Paulo, at the start of a minute.
	e.clock.Store(time.Date(2026, 3, 10, 17, 0, 0, 0, time.UTC).UnixNano())
	srv.App.Content.SetClock(e.now)
	return e
}

func (e *env) now() time.Time { return time.Unix(0, e.clock.Load()).UTC() }

func (e *env) advance(d time.Duration) { e.clock.Add(int64(d)) }

func (e *env) svc() *community.Service { return e.srv.App.Community }

// member signs a new member in.
func (e *env) member(t *testing.T, name string, roles ...string) (*apptest.Client, string) {
	t.Helper()
	return e.srv.SignedIn(t, name+"@teste.dev", roles...)
}

// connect makes a and b connected.
func (e *env) connect(t *testing.T, a, b string) {
	t.Helper()
	res, err := e.srv.App.Connections.Request(e.ctx, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.App.Connections.Accept(e.ctx, b, *res.ID); err != nil {
		t.Fatal(err)
	}
}

// post creates a post through the service, one second after the previous
// one (a fresh rate-limit window every minute is the caller's concern).
func (e *env) post(t *testing.T, userID, text string) community.Post {
	t.Helper()
	e.advance(time.Second)
	p, _, err := e.svc().Create(e.ctx, userID, community.Input{Content: text}, "")
	if err != nil {
		t.Fatalf("post %q: %v", text, err)
	}
	return p
}

// errorOf decodes an error answer.
type errorBody struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

func errorOf(t *testing.T, r apptest.Response) errorBody {
	t.Helper()
	var b errorBody
	r.JSON(t, &b)
	return b
}

// photo is an opaque w×h picture with some detail.
func photo(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x * 7), uint8(y * 5), uint8(x + y), 255})
		}
	}
	return img
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withEXIF inserts an APP1 Exif segment carrying a tell-tale text right
// after the JPEG's start-of-image marker, as a phone camera writes one.
func withEXIF(jpg []byte, secret string) []byte {
	payload := append([]byte("Exif\x00\x00"), []byte(secret)...)
	n := len(payload) + 2
	seg := append([]byte{0xFF, 0xE1, byte(n >> 8), byte(n)}, payload...)
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

// upload posts one file to /api/community/uploads as multipart/form-data.
func upload(t *testing.T, c *apptest.Client, name string, data []byte) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("POST", c.URLFor("/api/community/uploads"), &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	return c.Send(req)
}

// createPost posts over HTTP with an optional Idempotency-Key.
func createPost(t *testing.T, c *apptest.Client, key string, body any) apptest.Response {
	t.Helper()
	b, err := jsonBody(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("POST", c.URLFor("/api/community/posts"), bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return c.Send(req)
}
