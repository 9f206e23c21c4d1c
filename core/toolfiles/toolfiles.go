// Package toolfiles keeps the files members upload to a tool (plugin): an
// exam's PDF for a patient record, a photo for an AI reading. Each file
// belongs to one member and one plugin; nobody else reads it, through the
// API or the host API. Files live in the private store (never under the
// public /uploads/ path). An image is decoded and encoded again through
// core/imaging, so what is kept is pixels only (no EXIF, no trailing
// payload); a PDF is kept as sent after its checks (%PDF- header, %%EOF
// trailer, no scripts or embedded files, at most 10 MB).
package toolfiles

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/imaging"
	"github.com/vetclube/vetclube/core/postgres"
)

// Limits.
const (
	// MaxFileBytes is the largest upload accepted.
	MaxFileBytes = 10 << 20
	// DefaultQuotaBytes is what one member may keep in one tool.
	DefaultQuotaBytes = 200 << 20
	// ImageMaxSide is the longest side an image is kept at.
	ImageMaxSide = 2560
)

// Kinds.
const (
	KindImage = "image"
	KindPDF   = "pdf"
)

// User-facing messages (pt-BR).
const (
	MsgNotFound    = "Arquivo não encontrado."
	MsgUnsupported = "Tipo de arquivo não aceito. Envie uma imagem JPEG, PNG ou WebP ou um PDF."
	MsgTooLarge    = "O arquivo é grande demais. Envie um arquivo de até 10 MB."
	MsgEmpty       = "Envie um arquivo no campo file."
	MsgBadPDF      = "O PDF enviado está incompleto ou corrompido."
	MsgActivePDF   = "PDFs com scripts, comandos ou arquivos anexados não são aceitos."
)

// msgQuota is the refusal past the member's space in a tool.
func msgQuota(quota int64) string {
	return fmt.Sprintf("Você atingiu o espaço de %d MB para arquivos nesta ferramenta. Exclua arquivos que não usa mais para enviar novos.", quota>>20)
}

// File is one upload's description.
type File struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"`
	ContentType string    `json:"content_type"`
	Name        string    `json:"name"`
	Size        int64     `json:"size"`
	CreatedAt   time.Time `json:"created_at"`

	pluginID, userID, key string
}

// Store is where the bytes live: the private store (core/storage).
type Store interface {
	Put(ctx context.Context, key, contentType string, body io.Reader) error
	Delete(ctx context.Context, key string) error
	LocalPath(key string) (string, error)
}

// Options are a Service's dependencies.
type Options struct {
	Store  Store
	Images *imaging.Decoder // nil: imaging.DefaultLimits, 2 at a time
	// QuotaBytes is what one member may keep in one tool (0:
	// DefaultQuotaBytes).
	QuotaBytes int64
	Log        *slog.Logger
}

// Service stores and reads tool files.
type Service struct {
	pool   *pgxpool.Pool
	store  Store
	images *imaging.Decoder
	quota  int64
	log    *slog.Logger
}

// New returns the service.
func New(pool *pgxpool.Pool, o Options) *Service {
	s := &Service{pool: pool, store: o.Store, images: o.Images, quota: o.QuotaBytes, log: o.Log}
	if s.images == nil {
		s.images = imaging.NewDecoder(imaging.DefaultLimits, 2, 10*time.Second)
	}
	if s.quota <= 0 {
		s.quota = DefaultQuotaBytes
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

func invalid(msg string) error {
	return &core.Error{Code: core.EINVALID, Message: msg, Fields: map[string]string{"file": msg}}
}

// CleanName is the member's file name as kept: its last path element,
// control and formatting characters removed, at most 120 characters;
// "arquivo" when nothing is left.
func CleanName(name string) string {
	name = strings.ToValidUTF8(name, "")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(strings.TrimLeft(name, "."))
	for utf8.RuneCountInString(name) > 120 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" {
		return "arquivo"
	}
	return name
}

// activePDF are the PDF names that run something or carry other files.
var activePDF = [][]byte{[]byte("/JavaScript"), []byte("/JS"), []byte("/Launch"), []byte("/EmbeddedFile"), []byte("/EmbeddedFiles"), []byte("/RichMedia"), []byte("/XFA")}

// checkPDF accepts a PDF that starts with its header, ends with its
// trailer and names no script, launch action or attachment in its
// uncompressed structure.
func checkPDF(raw []byte) error {
	if !bytes.HasPrefix(raw, []byte("%PDF-")) {
		return invalid(MsgUnsupported)
	}
	tail := raw[max(0, len(raw)-1024):]
	if !bytes.Contains(tail, []byte("%%EOF")) {
		return invalid(MsgBadPDF)
	}
	for _, name := range activePDF {
		for i := 0; ; {
			j := bytes.Index(raw[i:], name)
			if j < 0 {
				break
			}
			end := i + j + len(name)
			// A name ends at a delimiter: /JS is not /JSomething.
			if end >= len(raw) || !isNameChar(raw[end]) {
				return invalid(MsgActivePDF)
			}
			i = end
		}
	}
	return nil
}

// CheckPDF applies the same checks to a PDF another feature keeps (a job
// application's CV): the header, the trailer, no active content.
func CheckPDF(raw []byte) error {
	if len(raw) > MaxFileBytes {
		return &core.Error{Code: core.ETOOLARGE, Message: MsgTooLarge, Fields: map[string]string{"file": MsgTooLarge}}
	}
	return checkPDF(raw)
}

func isNameChar(c byte) bool {
	return c > ' ' && c < 0x7f && !strings.ContainsRune("()<>[]{}/%", rune(c))
}

// prepare proves raw is an accepted file and returns what is stored.
func (s *Service) prepare(ctx context.Context, raw []byte) (kind, contentType string, data []byte, err error) {
	if len(raw) == 0 {
		return "", "", nil, invalid(MsgEmpty)
	}
	if len(raw) > MaxFileBytes {
		return "", "", nil, &core.Error{Code: core.ETOOLARGE, Message: MsgTooLarge, Fields: map[string]string{"file": MsgTooLarge}}
	}
	if bytes.HasPrefix(raw, []byte("%PDF-")) {
		if err := checkPDF(raw); err != nil {
			return "", "", nil, err
		}
		return KindPDF, "application/pdf", raw, nil
	}
	if _, ok, _ := imaging.Sniff(raw); !ok {
		return "", "", nil, invalid(MsgUnsupported)
	}
	img, _, err := s.images.Thumbnail(ctx, raw, ImageMaxSide)
	if err != nil {
		var e *core.Error
		if errors.As(err, &e) && e.Code == core.EINVALID {
			return "", "", nil, invalid(e.Message)
		}
		return "", "", nil, err
	}
	enc, err := imaging.Encode(img)
	if err != nil {
		return "", "", nil, err
	}
	return KindImage, enc.ContentType, enc.Data, nil
}

// Upload checks raw, stores it for userID in pluginID and describes it.
// The member's total in the tool stays within the quota even under
// concurrent uploads (a lock per member and tool).
func (s *Service) Upload(ctx context.Context, pluginID, userID, name string, raw []byte) (File, error) {
	kind, contentType, data, err := s.prepare(ctx, raw)
	if err != nil {
		return File{}, err
	}
	rnd := make([]byte, 16)
	_, _ = rand.Read(rnd)
	key := path.Join("tool-files", pluginID, userID, hex.EncodeToString(rnd))
	if err := s.store.Put(ctx, key, contentType, bytes.NewReader(data)); err != nil {
		return File{}, fmt.Errorf("store tool file: %w", err)
	}
	f := File{Kind: kind, ContentType: contentType, Name: CleanName(name), Size: int64(len(data))}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('tool-files:' || $1 || ':' || $2))`, pluginID, userID); err != nil {
			return err
		}
		var used int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(sum(size), 0) FROM tool_files WHERE user_id = $1 AND plugin_id = $2`, userID, pluginID).Scan(&used); err != nil {
			return err
		}
		if used+f.Size > s.quota {
			return core.Errorf(core.EFORBIDDEN, "%s", msgQuota(s.quota))
		}
		return tx.QueryRow(ctx, `INSERT INTO tool_files (plugin_id, user_id, kind, content_type, name, size, storage_key)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text, created_at`,
			pluginID, userID, kind, contentType, f.Name, f.Size, key).Scan(&f.ID, &f.CreatedAt)
	})
	if err != nil {
		if derr := s.store.Delete(context.WithoutCancel(ctx), key); derr != nil {
			s.log.Warn("tool file left in storage", "key", key, "err", derr)
		}
		if core.ErrorCode(err) != "" {
			return File{}, err
		}
		return File{}, fmt.Errorf("record tool file: %w", err)
	}
	return f, nil
}

// validID accepts a canonical uuid; anything else is simply not found.
func validID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range id {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
	}
	return true
}

const columns = `id::text, plugin_id, user_id::text, kind, content_type, name, size, storage_key, created_at`

func scan(row pgx.Row) (File, error) {
	var f File
	err := row.Scan(&f.ID, &f.pluginID, &f.userID, &f.Kind, &f.ContentType, &f.Name, &f.Size, &f.key, &f.CreatedAt)
	return f, err
}

// Get describes userID's file id in pluginID; any other file is ENOTFOUND.
func (s *Service) Get(ctx context.Context, pluginID, userID, id string) (File, error) {
	if !validID(id) || userID == "" {
		return File{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	f, err := scan(s.pool.QueryRow(ctx, `SELECT `+columns+` FROM tool_files WHERE id = $1 AND user_id = $2 AND plugin_id = $3`, id, userID, pluginID))
	if postgres.IsNoRows(err) {
		return File{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return File{}, fmt.Errorf("get tool file: %w", err)
	}
	return f, nil
}

// Read is Get with the file's bytes.
func (s *Service) Read(ctx context.Context, pluginID, userID, id string) (File, []byte, error) {
	f, err := s.Get(ctx, pluginID, userID, id)
	if err != nil {
		return File{}, nil, err
	}
	p, err := s.store.LocalPath(f.key)
	if err != nil {
		return File{}, nil, fmt.Errorf("read tool file %s: %w", f.ID, err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return File{}, nil, fmt.Errorf("read tool file %s: %w", f.ID, err)
	}
	return f, data, nil
}

// List returns userID's files in pluginID, newest first (at most 200).
func (s *Service) List(ctx context.Context, pluginID, userID string) ([]File, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+columns+` FROM tool_files WHERE user_id = $1 AND plugin_id = $2 ORDER BY created_at DESC, id LIMIT 200`, userID, pluginID)
	if err != nil {
		return nil, fmt.Errorf("list tool files: %w", err)
	}
	out := []File{}
	for rows.Next() {
		f, err := scan(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("list tool files: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// Delete removes userID's file id in pluginID and reports whether there
// was one; someone else's file is left alone (false).
func (s *Service) Delete(ctx context.Context, pluginID, userID, id string) (bool, error) {
	if !validID(id) || userID == "" {
		return false, nil
	}
	var key string
	err := s.pool.QueryRow(ctx, `DELETE FROM tool_files WHERE id = $1 AND user_id = $2 AND plugin_id = $3 RETURNING storage_key`, id, userID, pluginID).Scan(&key)
	if postgres.IsNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("delete tool file: %w", err)
	}
	if err := s.store.Delete(ctx, key); err != nil {
		s.log.Warn("tool file left in storage", "key", key, "err", err)
	}
	return true, nil
}
