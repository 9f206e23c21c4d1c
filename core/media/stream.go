package media

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/storage"
)

// StreamPath is where protected files are served: a video's HLS playlists,
// segments and subtitles, and documents (lesson materials). They live in the
// private store, never under /uploads/, and each address carries a signed,
// short-lived token: GET StreamPath + <token> + "/" + <file>.
//
// The token signs a folder of the private store (a stream's HLS folder, or a
// document's asset folder), the member it was given to and its expiry; any
// file below that folder is served with it. Playlists name their variants,
// segments and subtitles by relative addresses, so a player resolves them
// below the same token: every request of a stream carries it, and checking
// it needs no database.
const StreamPath = "/api/media/stream/"

// Messages of the stream endpoint.
const (
	MsgStreamExpired = "Este endereço de vídeo ou arquivo expirou. Abra o conteúdo de novo para continuar."
	MsgStreamInvalid = "Endereço de vídeo ou arquivo inválido."
)

// Stream lifetimes: a token lasts long enough to watch its video from start
// to end with pauses (StreamMinLifetime plus twice the video's duration),
// never more than StreamMaxLifetime. The owning feature hands out a new one
// each time its page opens, after its own access check.
const (
	StreamMinLifetime = 4 * time.Hour
	StreamMaxLifetime = 24 * time.Hour
)

// StreamLifetime is how long a signed address of a video of mediaSeconds
// (0 for a document) stays valid.
func StreamLifetime(mediaSeconds float64) time.Duration {
	d := StreamMinLifetime + 2*time.Duration(max(0, mediaSeconds)*float64(time.Second))
	return min(d, StreamMaxLifetime)
}

// Streams signs addresses of protected files and verifies them.
type Streams struct {
	key []byte
	now func() time.Time
}

// NewStreams signs with a key derived from secret (the server's signing
// secret, shared by every instance on the database), so the stream tokens
// never share a key with anything else it signs.
func NewStreams(secret []byte, now func() time.Time) (*Streams, error) {
	if len(secret) < 32 {
		return nil, errors.New("media: the stream signing secret needs at least 32 bytes")
	}
	if now == nil {
		now = time.Now
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("vetclube media streams v1"))
	return &Streams{key: m.Sum(nil), now: now}, nil
}

// URL is the signed address of the protected file key (a master playlist
// or a document) for memberID, valid for lifetime. The owning feature calls
// it only after its own access check.
func (s *Streams) URL(key, memberID string, lifetime time.Duration) string {
	if s == nil || !storage.ValidKey(key) || !strings.Contains(key, "/") {
		return ""
	}
	exp := s.now().Add(lifetime).Unix()
	return StreamPath + s.token(path.Dir(key), memberID, exp) + "/" + path.Base(key)
}

// MediaURL is URL with the lifetime of a video of mediaSeconds.
func (s *Streams) MediaURL(key, memberID string, mediaSeconds float64) string {
	return s.URL(key, memberID, StreamLifetime(mediaSeconds))
}

func (s *Streams) token(scope, memberID string, exp int64) string {
	payload := "1\n" + memberID + "\n" + strconv.FormatInt(exp, 10) + "\n" + scope
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(s.mac(payload))
}

func (s *Streams) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)[:20]
}

// grant is what a valid token allows.
type grant struct {
	scope, member string
	expires       time.Time
}

var (
	errStreamInvalid = core.Errorf(core.EFORBIDDEN, MsgStreamInvalid)
	errStreamExpired = core.Errorf(core.EFORBIDDEN, MsgStreamExpired)
)

// verify checks token's signature and expiry.
func (s *Streams) verify(token string) (grant, error) {
	p64, m64, ok := strings.Cut(token, ".")
	if !ok || len(token) > 1024 {
		return grant{}, errStreamInvalid
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p64)
	sig, err2 := base64.RawURLEncoding.DecodeString(m64)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, s.mac(string(payload))) {
		return grant{}, errStreamInvalid
	}
	parts := strings.SplitN(string(payload), "\n", 4)
	if len(parts) != 4 || parts[0] != "1" || !storage.ValidKey(parts[3]) {
		return grant{}, errStreamInvalid
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return grant{}, errStreamInvalid
	}
	g := grant{scope: parts[3], member: parts[1], expires: time.Unix(exp, 0)}
	if !s.now().Before(g.expires) {
		return grant{}, errStreamExpired
	}
	return g, nil
}

// presignStore is an object store that gives out signed GET addresses of
// its private objects and reads small ones whole (S3).
type presignStore interface {
	Presign(ctx context.Context, key string, expiry time.Duration) (string, error)
	Read(ctx context.Context, key string, limit int64) ([]byte, error)
}

// maxPlaylistBytes bounds a playlist read into memory to be rewritten.
const maxPlaylistBytes = 4 << 20

// Handler serves GET/HEAD StreamPath<token>/<file> from store (the private
// store). The answer may be kept only by the member's browser, for no longer
// than the token lives (Cache-Control: private).
//
// On local disk the file itself is served. On an object store (S3) the
// bytes do not pass through this server: a playlist is read and rewritten so
// each segment and subtitle file is a presigned address of the private
// bucket expiring with the token (a player then fetches the segments from
// the object store directly, and the variant playlists, still relative,
// come back here with the token); any other file answers a redirect to its
// presigned address. Presigning rather than proxying keeps the video
// traffic off the app server; the bucket stays private, so only these
// addresses read it.
func (s *Streams) Handler(store Storage, log *slog.Logger) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return core.Errorf(core.ENOTFOUND, MsgNotFound)
		}
		token, file, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, StreamPath), "/")
		if !ok || file == "" {
			return errStreamInvalid
		}
		g, err := s.verify(token)
		if err != nil {
			return err
		}
		key := g.scope + "/" + file
		if !relativeKey(file) || !storage.ValidKey(key) {
			return core.Errorf(core.ENOTFOUND, MsgNotFound)
		}
		remaining := g.expires.Sub(s.now())
		cache := fmt.Sprintf("private, max-age=%d", max(0, int(remaining/time.Second)))
		switch st := store.(type) {
		case *storage.Disk:
			f, err := st.Open(key)
			if err != nil {
				return core.Errorf(core.ENOTFOUND, MsgNotFound)
			}
			defer f.Close()
			info, err := f.Stat()
			if err != nil {
				return fmt.Errorf("media: stream %s: %w", key, err)
			}
			if ct := storage.ContentType(key); ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			w.Header().Set("Cache-Control", cache)
			w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
			http.ServeContent(w, r, "", info.ModTime(), f)
			return nil
		case presignStore:
			if path.Ext(key) != ".m3u8" {
				u, err := st.Presign(r.Context(), key, remaining)
				if err != nil {
					return err
				}
				http.Redirect(w, r, u, http.StatusFound)
				return nil
			}
			b, err := st.Read(r.Context(), key, maxPlaylistBytes)
			if errors.Is(err, storage.ErrNotFound) {
				return core.Errorf(core.ENOTFOUND, MsgNotFound)
			}
			if err != nil {
				return err
			}
			out, err := rewritePlaylist(b, func(rel string) (string, error) {
				return st.Presign(r.Context(), path.Join(path.Dir(key), rel), remaining)
			})
			if err != nil {
				return err
			}
			w.Header().Set("Content-Type", storage.ContentType(key))
			w.Header().Set("Cache-Control", cache)
			w.Header().Set("Content-Length", strconv.Itoa(len(out)))
			w.WriteHeader(http.StatusOK)
			if r.Method == http.MethodGet {
				_, _ = w.Write(out)
			}
			return nil
		}
		return core.Errorf(core.ENOTFOUND, MsgNotFound)
	})
}

var uriAttr = regexp.MustCompile(`URI="([^"]*)"`)

// rewritePlaylist replaces each relative address of a file that is not a
// playlist (segments, subtitle files, init sections) by sign(address);
// playlists stay relative, so they are asked of the stream endpoint again.
func rewritePlaylist(b []byte, sign func(rel string) (string, error)) ([]byte, error) {
	var out bytes.Buffer
	var firstErr error
	conv := func(ref string) string {
		if ref == "" || strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") || path.Ext(strings.SplitN(ref, "?", 2)[0]) == ".m3u8" {
			return ref
		}
		clean := path.Clean(ref)
		if !relativeKey(clean) {
			return ref
		}
		u, err := sign(clean)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return u
	}
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case strings.HasPrefix(t, "#"):
			line = uriAttr.ReplaceAllStringFunc(line, func(m string) string {
				return `URI="` + conv(uriAttr.FindStringSubmatch(m)[1]) + `"`
			})
		default:
			line = conv(t)
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}
