// Package s3fake runs an S3 server for tests. S3 is a paid outside service,
// so tests talk to gofakes3, an in-process implementation of the S3 HTTP
// API, behind httptest: the store under test uses the same client, signed
// requests and wire protocol it uses against AWS, R2 or MinIO.
package s3fake

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

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
	URL string // http://127.0.0.1:port
	mu  sync.Mutex
	put map[string]http.Header
}

// Start serves an S3 API with buckets until the test ends.
func Start(t testing.TB, buckets ...string) *Server {
	t.Helper()
	backend := s3mem.New()
	for _, b := range buckets {
		if err := backend.CreateBucket(b); err != nil {
			t.Fatal(err)
		}
	}
	s := &Server{put: map[string]http.Header{}}
	api := gofakes3.New(backend).Server()
	// gofakes3 keeps only Content-Type and x-amz-* headers of an upload,
	// so the other headers a store sends are recorded on the wire.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut || r.Method == http.MethodPost {
			s.mu.Lock()
			s.put[r.URL.Path] = r.Header.Clone()
			s.mu.Unlock()
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Endpoint is the host:port an S3 client connects to.
func (s *Server) Endpoint() string { return strings.TrimPrefix(s.URL, "http://") }

// UploadHeader is the request header of the last upload to path
// ("/bucket/key"), nil when none.
func (s *Server) UploadHeader(path string) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.put[path]
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
