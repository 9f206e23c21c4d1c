// Package s3fake runs an S3 server for tests. S3 is a paid outside service,
// so tests talk to gofakes3, an in-process implementation of the S3 HTTP
// API, behind httptest: the store under test uses the same client, signed
// requests and wire protocol it uses against AWS, R2 or MinIO.
package s3fake

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Credentials the server accepts (gofakes3 checks none).
const (
	AccessKey = "teste"
	SecretKey = "segredo-de-teste"
)

// Server is a running fake S3 with its buckets created.
type Server struct {
	URL   string // http://127.0.0.1:port
	mu    sync.Mutex
	put   map[string]http.Header
	parts map[string]int
	close func()
}

// Start serves an S3 API with buckets until the test ends.
func Start(t testing.TB, buckets ...string) *Server {
	t.Helper()
	s, err := Listen("127.0.0.1:0", buckets...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Listen serves an S3 API with buckets on addr (host:port; port 0 picks a
// free one) until Close; the browser tests run it as a process
// (cmd/s3fake).
func Listen(addr string, buckets ...string) (*Server, error) {
	backend := s3mem.New()
	for _, b := range buckets {
		if err := backend.CreateBucket(b); err != nil {
			return nil, fmt.Errorf("s3fake: bucket %s: %w", b, err)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("s3fake: %w", err)
	}
	s := &Server{put: map[string]http.Header{}, parts: map[string]int{}}
	api := gofakes3.New(backend).Server()
	// gofakes3 keeps only Content-Type and x-amz-* headers of an upload,
	// so the other headers a store sends are recorded on the wire.
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		s.mu.Lock()
		switch {
		case r.Method == http.MethodPut && q.Has("partNumber"):
			s.parts[r.URL.Path]++ // one part of a multipart upload
		case r.Method == http.MethodPut, r.Method == http.MethodPost && q.Has("uploads"):
			// A single upload, or the start of a multipart one: the
			// request carrying the object's headers.
			s.put[r.URL.Path] = r.Header.Clone()
		}
		s.mu.Unlock()
		if r.Method == http.MethodPut && q.Has("partNumber") && r.Header.Get("X-Amz-Content-Sha256") == streamingPayload {
			// gofakes3 decodes chunk-signed bodies of whole-object PUTs but
			// stores those of parts as they come; an S3 server decodes both.
			if err := decodeChunkedPart(r); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		api.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }() // returns ErrServerClosed on Close
	s.close = func() { srv.Close() }
	s.URL = "http://" + ln.Addr().String()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() {
	if s.close != nil {
		s.close()
	}
}

// Endpoint is the host:port an S3 client connects to.
func (s *Server) Endpoint() string { return strings.TrimPrefix(s.URL, "http://") }

// UploadHeader is the request header of the last upload to path
// ("/bucket/key"), or of the request starting its multipart upload; nil
// when none.
func (s *Server) UploadHeader(path string) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.put[path]
}

// Parts is how many multipart parts were sent to path ("/bucket/key").
func (s *Server) Parts(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.parts[path]
}

// Env is the configuration that stores public files in bucket public and
// video originals in bucket private on this server.
func (s *Server) Env(public, private string) map[string]string {
	return map[string]string{
		"S3_ENDPOINT": s.Endpoint(), "S3_USE_SSL": "false", "S3_REGION": "us-east-1",
		"S3_BUCKET": public, "S3_PRIVATE_BUCKET": private,
		"S3_ACCESS_KEY_ID": AccessKey, "S3_SECRET_ACCESS_KEY": SecretKey,
	}
}

// Client is a plain S3 client on the server, to look at objects
// independently of the store under test.
func (s *Server) Client(t testing.TB) *minio.Client {
	t.Helper()
	c, err := minio.New(s.Endpoint(), &minio.Options{Creds: credentials.NewStaticV4(AccessKey, SecretKey, ""), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// streamingPayload marks a body sent in signed chunks (aws-chunked), which
// S3 clients use over plain HTTP.
const streamingPayload = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"

// decodeChunkedPart replaces r's aws-chunked body ("<hex size>;chunk-
// signature=…\r\n<bytes>\r\n", ending with a chunk of size 0) by its bytes.
func decodeChunkedPart(r *http.Request) error {
	br := bufio.NewReader(r.Body)
	var out bytes.Buffer
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return fmt.Errorf("s3fake: chunk header: %w", err)
		}
		sizeHex, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		size, err := strconv.ParseInt(sizeHex, 16, 64)
		if err != nil || size < 0 {
			return fmt.Errorf("s3fake: chunk size %q", sizeHex)
		}
		if size == 0 {
			break
		}
		if _, err := io.CopyN(&out, br, size); err != nil {
			return fmt.Errorf("s3fake: chunk body: %w", err)
		}
		if _, err := br.Discard(2); err != nil { // the chunk's closing CRLF
			return fmt.Errorf("s3fake: chunk end: %w", err)
		}
	}
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(out.Bytes()))
	r.ContentLength = int64(out.Len())
	r.Header.Set("Content-Length", strconv.Itoa(out.Len()))
	r.Header.Set("X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD")
	r.Header.Del("Content-Encoding")
	return nil
}
