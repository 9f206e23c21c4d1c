package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/media"
)

// statusRecorder remembers the status written, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Flush keeps server-sent events working through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// accessLog logs one structured line per request: errors always, writes at
// info, successful reads at debug (the hot path: formatting a line per read
// cost more than the read itself). LOG_LEVEL=debug shows them all.
func accessLog(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := &statusRecorder{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			level := accessLevel(r, rec.status)
			if !log.Enabled(r.Context(), level) {
				return
			}
			log.LogAttrs(r.Context(), level, "http",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", rec.status),
				slog.Int("bytes", rec.bytes),
				slog.Duration("duration", time.Since(start)),
				slog.String("request_id", httpx.RequestID(r.Context())),
			)
		})
	}
}

func accessLevel(r *http.Request, status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelError
	case status >= 400:
		return slog.LevelWarn
	case r.URL.Path == "/healthz" || r.URL.Path == "/readyz" || r.URL.Path == "/livez":
		return slog.LevelDebug
	case r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions:
		return slog.LevelDebug
	}
	return slog.LevelInfo
}

// recoverPanics turns a panic into the standard 500 response; the stack is
// logged, never sent.
func recoverPanics(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				v := recover()
				if v == nil || v == http.ErrAbortHandler {
					if v != nil {
						panic(v)
					}
					return
				}
				log.ErrorContext(r.Context(), "panic", "value", fmt.Sprint(v), "stack", string(debug.Stack()),
					"request_id", httpx.RequestID(r.Context()))
				httpx.WriteError(w, r, nil, &core.Error{Code: core.EINTERNAL, Err: fmt.Errorf("panic: %v", v)})
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// contentSecurityPolicy allows the app's own origin and the video hosts the
// app embeds (YouTube, Vimeo, Cloudflare Stream); nothing may frame the app.
// origins, when not empty, are where uploaded files are fetched from (an S3
// bucket or its CDN, and the private bucket's presigned addresses): images,
// HLS playlists and segments (which hls.js fetches with XHR) and posters
// load from there.
func contentSecurityPolicy(origins ...string) string {
	files := ""
	for _, o := range origins {
		if o != "" && !strings.Contains(files, " "+o) {
			files += " " + o
		}
	}
	return strings.Join([]string{
		"default-src 'self'",
		// 'wasm-unsafe-eval' lets the PWA compile a form tool's offline build
		// (GET /api/tools/{id}/offline.wasm); it allows no JavaScript eval.
		"script-src 'self' 'wasm-unsafe-eval'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob: https:" + files,
		"font-src 'self' data:",
		// blob: is hls.js's MediaSource; data: the empty WebVTT track it
		// attaches to each subtitle track so the browser renders the cues.
		"media-src 'self' blob: data: https://*.cloudflarestream.com https://videodelivery.net" + files,
		"frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com https://iframe.videodelivery.net https://*.cloudflarestream.com",
		"connect-src 'self'" + files,
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// filesOrigin is the scheme://host[:port] of S3_PUBLIC_URL, or "" when
// files are served from this origin.
func filesOrigin(publicURL string) string {
	u, err := url.Parse(publicURL)
	if publicURL == "" || err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// headerValue is a header value built once and put on every response as it
// is: no key canonicalisation or value slice per request. Its capacity is its
// length, so an Add on the response appends to a copy; handlers replace
// headers (Set, Del) and never edit a value in place.
func headerValue(v string) []string { return []string{v}[:1:1] }

func securityHeaders(csp string) func(http.Handler) http.Handler {
	always := []struct {
		key   string // canonical
		value []string
	}{
		{"Content-Security-Policy", headerValue(csp)},
		{"X-Content-Type-Options", headerValue("nosniff")},
		{"X-Frame-Options", headerValue("DENY")},
		{"Referrer-Policy", headerValue("strict-origin-when-cross-origin")},
		{"Permissions-Policy", headerValue("camera=(), microphone=(), geolocation=()")},
		{"Cross-Origin-Opener-Policy", headerValue("same-origin-allow-popups")},
	}
	hsts := headerValue("max-age=63072000; includeSubDomains")
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			for _, kv := range always {
				h[kv.key] = kv.value
			}
			if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
				h["Strict-Transport-Security"] = hsts
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Body limits: JSON bodies are small; multipart uploads (avatars, 5 MB) get
// room for their envelope and are checked precisely by their handlers.
const (
	maxJSONBody      = 1 << 20
	maxMultipartBody = 12 << 20
)

func limitBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			limit := int64(maxJSONBody)
			if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
				limit = maxMultipartBody
			}
			// A tus chunk may be as large as the upload; the tus handler
			// bounds it by the Upload-Length checked at creation.
			if (r.Method == http.MethodPatch || r.Method == http.MethodPost) && strings.HasPrefix(r.URL.Path, media.UploadsPath) &&
				r.Header.Get("Content-Type") == "application/offset+octet-stream" {
				limit = media.MaxVideoBytes
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		next.ServeHTTP(w, r)
	})
}

// noStoreAPI makes "Cache-Control: no-store" the default of every /api
// answer: most carry personal data (the profile with email, phone and CPF,
// the sessions list) that no browser or proxy cache may keep. A public
// endpoint opts in to caching by setting its own Cache-Control.
func noStoreAPI(next http.Handler) http.Handler {
	noStore := headerValue("no-store")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/") {
			w.Header()["Cache-Control"] = noStore
		}
		next.ServeHTTP(w, r)
	})
}

// headOnly ends a HEAD request's context as soon as its headers are written.
// middleware.GetHead answers HEAD with the GET handler, and a streaming one
// (the server-sent events of /api/events) would otherwise never return: the
// body it writes is discarded, and the client, having its complete answer,
// reuses the connection while the handler still holds it.
func headOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		next.ServeHTTP(&headWriter{ResponseWriter: w, done: cancel}, r.WithContext(ctx))
	})
}

type headWriter struct {
	http.ResponseWriter
	done context.CancelFunc
}

func (h *headWriter) WriteHeader(code int) {
	h.ResponseWriter.WriteHeader(code)
	if code >= 200 {
		h.done()
	}
}

func (h *headWriter) Write(b []byte) (int, error) {
	h.done()
	return h.ResponseWriter.Write(b)
}

// Flush sends the headers; the handler is told to stop.
func (h *headWriter) Flush() {
	if f, ok := h.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	h.done()
}

func (h *headWriter) Unwrap() http.ResponseWriter { return h.ResponseWriter }
