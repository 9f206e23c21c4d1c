package lgpd

import (
	"archive/zip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"path"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/postgres"
)

// Rules of the member's data.
const (
	// ExportLinkTTL is how long an export's link works.
	ExportLinkTTL = 7 * 24 * time.Hour
	// ExportEvery is the shortest time between two exports of one member.
	ExportEvery = 24 * time.Hour
	// DeletionGrace is how long a deletion waits; signing in cancels it.
	DeletionGrace = 30 * 24 * time.Hour
	// codeTTL and codeTries bound the e-mailed deletion code.
	codeTTL   = 15 * time.Minute
	codeTries = 5
)

// Messages shown to members (pt-BR).
const (
	MsgExportToday     = "Você já pediu uma exportação nas últimas 24 horas. Tente novamente amanhã."
	MsgExportNotFound  = "Exportação não encontrada."
	MsgExportExpired   = "Este link expirou. Peça uma nova exportação em Meus dados."
	MsgExportNotReady  = "A exportação ainda está sendo preparada. Você receberá um e-mail quando ficar pronta."
	MsgWrongPassword   = "Senha incorreta."
	MsgWrongCode       = "Código incorreto ou expirado. Peça um novo código."
	MsgConfirmNeeded   = "Confirme com a sua senha ou com o código enviado por e-mail."
	MsgNoDeletion      = "Não há exclusão de conta agendada."
	MsgUnavailable     = "Serviço temporariamente indisponível. Tente novamente em instantes."
	MsgCancelledSignIn = "A exclusão da sua conta foi cancelada porque você entrou novamente."
)

// Request states.
const (
	StatusPending    = "pendente"
	StatusProcessing = "processando"
	StatusReady      = "pronto"
	StatusError      = "erro"
	StatusExpired    = "expirado"
	StatusScheduled  = "agendada"
	StatusDone       = "concluida"
	StatusCancelled  = "cancelada"
)

// Workflows runs the durable parts: building and mailing an export (then
// removing it when its link expires), and a deletion's grace timer followed
// by its steps. workflows.LGPDEngine implements it on Temporal.
type Workflows interface {
	StartExport(ctx context.Context, requestID string) error
	StartDeletion(ctx context.Context, requestID string, at time.Time) error
	CancelDeletion(ctx context.Context, requestID string) error
}

// Accounts is what the member's account (core/auth) lends this package.
type Accounts interface {
	Email(ctx context.Context, userID string) (string, error)
	// CheckPassword reports whether pass is userID's password (false for an
	// account without one).
	CheckPassword(ctx context.Context, userID, pass string) (bool, error)
	// EndAllSessions signs userID out everywhere.
	EndAllSessions(ctx context.Context, userID string) error
}

// Store keeps export ZIPs privately (never served as a public file).
type Store interface {
	PutFile(ctx context.Context, key, contentType, src string) error
	LocalPath(key string) (string, error)
	Delete(ctx context.Context, key string) error
}

// Notifier tells a member something in the app (optional).
type Notifier interface {
	NotifyLGPD(ctx context.Context, userID, key, title, body, url string) error
}

// Options are a Service's dependencies.
type Options struct {
	Registry  *Registry
	Store     Store
	Mailer    mail.Mailer
	Accounts  Accounts
	Workflows Workflows
	Notifier  Notifier
	PublicURL string
	Now       func() time.Time
	Log       *slog.Logger
	// TempDir is where ZIPs are built before they are stored ("" = os.TempDir).
	TempDir string
}

// Service is the member's data requests.
type Service struct {
	pool *pgxpool.Pool
	o    Options
}

// New returns the service.
func New(pool *pgxpool.Pool, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Registry == nil {
		o.Registry = NewRegistry()
	}
	return &Service{pool: pool, o: o}
}

// Registry is where owners register their exporters and erasers.
func (s *Service) Registry() *Registry { return s.o.Registry }

// SetWorkflows installs the durable runner (wiring, before serving).
func (s *Service) SetWorkflows(w Workflows) { s.o.Workflows = w }

// Request is one export or deletion as its member (and the backoffice) sees it.
type Request struct {
	ID           string     `json:"id"`
	Kind         string     `json:"kind"`
	Status       string     `json:"status"`
	RequestedAt  time.Time  `json:"requested_at"`
	ScheduledFor *time.Time `json:"scheduled_for,omitempty"`
	FinishedAt   *time.Time `json:"finished_at,omitempty"`
	ExpiresAt    *time.Time `json:"expires_at,omitempty"`
	Size         int64      `json:"size,omitempty"`
	Detail       string     `json:"detail,omitempty"`
	DownloadURL  string     `json:"download_url,omitempty"`
}

const requestColumns = `id::text, kind, status, requested_at, scheduled_for, finished_at, expires_at, file_size, detail`

func scanRequest(row pgx.Row) (Request, error) {
	var r Request
	err := row.Scan(&r.ID, &r.Kind, &r.Status, &r.RequestedAt, &r.ScheduledFor, &r.FinishedAt, &r.ExpiresAt, &r.Size, &r.Detail)
	if r.Kind == "export" && r.Status == StatusReady {
		r.DownloadURL = "/api/me/data-exports/" + r.ID + "/download"
	}
	return r, err
}

// --- Exports ----------------------------------------------------------------

// RequestExport records a new export for userID and starts building it; one
// a day (the previous one's failure does not count).
func (s *Service) RequestExport(ctx context.Context, userID string) (Request, error) {
	var req Request
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		// One request at a time per member: two clicks never make two exports.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('lgpd-export:' || $1))`, userID); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		var recent bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM lgpd_requests WHERE user_id = $1 AND kind = 'export'
			AND status <> 'erro' AND requested_at > $2)`, userID, s.o.Now().Add(-ExportEvery)).Scan(&recent); err != nil {
			return fmt.Errorf("recent exports: %w", err)
		}
		if recent {
			return core.Errorf(core.ERATELIMITED, MsgExportToday)
		}
		var err error
		req, err = scanRequest(tx.QueryRow(ctx, `INSERT INTO lgpd_requests (user_id, kind, status, requested_at, updated_at)
			VALUES ($1, 'export', 'pendente', $2, $2) RETURNING `+requestColumns, userID, s.o.Now()))
		return err
	})
	if err != nil {
		return Request{}, err
	}
	if err := s.startExport(ctx, req.ID); err != nil {
		s.o.Log.Error("start export", "request", req.ID, "err", err)
		_, _ = s.pool.Exec(ctx, `UPDATE lgpd_requests SET status = 'erro', error = $2, updated_at = now() WHERE id = $1`, req.ID, err.Error())
		return Request{}, core.Errorf(core.EUNAVAILABLE, MsgUnavailable)
	}
	return req, nil
}

func (s *Service) startExport(ctx context.Context, id string) error {
	if s.o.Workflows != nil {
		return s.o.Workflows.StartExport(ctx, id)
	}
	// Without a workflow engine the export is built in the background here.
	go func() {
		ctx := context.WithoutCancel(ctx)
		if err := s.BuildExport(ctx, id); err != nil {
			s.o.Log.Error("build export", "request", id, "err", err)
			_, _ = s.pool.Exec(ctx, `UPDATE lgpd_requests SET status = 'erro', error = $2, updated_at = now() WHERE id = $1`, id, err.Error())
			return
		}
		if err := s.MailExport(ctx, id); err != nil {
			s.o.Log.Error("mail export", "request", id, "err", err)
		}
	}()
	return nil
}

// Requests lists userID's requests, newest first.
func (s *Service) Requests(ctx context.Context, userID string) ([]Request, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+requestColumns+` FROM lgpd_requests WHERE user_id = $1 ORDER BY requested_at DESC LIMIT 50`, userID)
	if err != nil {
		return nil, fmt.Errorf("list requests: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Request, error) { return scanRequest(r) })
	if err != nil {
		return nil, fmt.Errorf("list requests: %w", err)
	}
	if out == nil {
		out = []Request{}
	}
	return out, nil
}

// exportKey is where an export's ZIP lives in private storage.
func exportKey(id string) string { return "lgpd-exports/" + id + ".zip" }

// BuildExport gathers every area of the request's member into a ZIP in
// private storage and marks the request ready. It is safe to run again: a
// ready export is left as it is, and a half-built one is built again.
func (s *Service) BuildExport(ctx context.Context, requestID string) error {
	var userID *string
	var status string
	err := s.pool.QueryRow(ctx, `UPDATE lgpd_requests SET status = CASE WHEN status = 'pendente' THEN 'processando' ELSE status END,
		updated_at = now() WHERE id = $1 AND kind = 'export' RETURNING user_id::text, status`, requestID).Scan(&userID, &status)
	if postgres.IsNoRows(err) || (err == nil && (status != StatusProcessing || userID == nil)) {
		return nil // gone, already ready, expired or failed: nothing to build
	}
	if err != nil {
		return fmt.Errorf("claim export: %w", err)
	}
	tmp, err := os.CreateTemp(s.o.TempDir, "lgpd-export-*.zip")
	if err != nil {
		return fmt.Errorf("export temp file: %w", err)
	}
	defer os.Remove(tmp.Name())
	size, err := s.writeZip(ctx, tmp, *userID)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := s.o.Store.PutFile(ctx, exportKey(requestID), "application/zip", tmp.Name()); err != nil {
		return fmt.Errorf("store export: %w", err)
	}
	now := s.o.Now()
	if _, err := s.pool.Exec(ctx, `UPDATE lgpd_requests SET status = 'pronto', file_key = $2, file_size = $3,
		finished_at = $4, expires_at = $5, updated_at = now() WHERE id = $1 AND status = 'processando'`,
		requestID, exportKey(requestID), size, now, now.Add(ExportLinkTTL)); err != nil {
		return fmt.Errorf("export ready: %w", err)
	}
	return nil
}

// Manifest is the ZIP's LEIA-ME.json: what it holds.
type Manifest struct {
	GeneratedAt time.Time `json:"gerado_em"`
	UserID      string    `json:"usuario_id"`
	Areas       []string  `json:"areas"`
	Folders     []string  `json:"pastas"`
	Note        string    `json:"observacao"`
}

func (s *Service) writeZip(ctx context.Context, f *os.File, userID string) (int64, error) {
	zw := zip.NewWriter(f)
	r := s.o.Registry
	r.mu.RLock()
	areas, files := append([]namedExporter(nil), r.areas...), append([]namedFiles(nil), r.files...)
	r.mu.RUnlock()
	man := Manifest{GeneratedAt: s.o.Now().UTC(), UserID: userID,
		Note: "Cópia dos seus dados no VetClube, conforme a LGPD: um arquivo JSON por área e os arquivos que você enviou."}
	put := func(name string, data []byte) error {
		w, err := zw.Create(name)
		if err != nil {
			return fmt.Errorf("zip %s: %w", name, err)
		}
		_, err = w.Write(data)
		return err
	}
	for _, a := range areas {
		v, err := a.e.ExportUser(ctx, userID)
		if err != nil {
			return 0, fmt.Errorf("export %s: %w", a.name, err)
		}
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return 0, fmt.Errorf("export %s: %w", a.name, err)
		}
		if err := put(a.name+".json", b); err != nil {
			return 0, err
		}
		man.Areas = append(man.Areas, a.name)
	}
	for _, fe := range files {
		list, err := fe.f.ExportFiles(ctx, userID)
		if err != nil {
			return 0, fmt.Errorf("export %s: %w", fe.folder, err)
		}
		for _, file := range list {
			name := path.Clean("/" + file.Name)[1:]
			if name == "" || strings.HasPrefix(name, "..") {
				continue
			}
			if err := put(fe.folder+"/"+name, file.Data); err != nil {
				return 0, err
			}
		}
		man.Folders = append(man.Folders, fe.folder)
	}
	b, _ := json.MarshalIndent(man, "", "  ")
	if err := put("LEIA-ME.json", b); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, fmt.Errorf("zip: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// MailExport e-mails the member the link of a ready export, once.
func (s *Service) MailExport(ctx context.Context, requestID string) error {
	var userID *string
	var expires *time.Time
	err := s.pool.QueryRow(ctx, `UPDATE lgpd_requests SET detail = 'email', updated_at = now()
		WHERE id = $1 AND kind = 'export' AND status = 'pronto' AND detail = '' RETURNING user_id::text, expires_at`, requestID).Scan(&userID, &expires)
	if postgres.IsNoRows(err) || (err == nil && userID == nil) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mark export mailed: %w", err)
	}
	to, err := s.o.Accounts.Email(ctx, *userID)
	if err == nil {
		link := s.o.PublicURL + "/api/me/data-exports/" + requestID + "/download"
		until := expires.In(saoPaulo).Format("02/01/2006 às 15:04")
		err = s.o.Mailer.Send(ctx, mail.Message{To: to, Subject: "Seus dados do VetClube estão prontos",
			Text: "Olá!\n\nA cópia dos seus dados que você pediu está pronta. Baixe o arquivo ZIP (é preciso estar conectado à sua conta):\n\n" +
				link + "\n\nO link vale até " + until + ". Depois disso, peça uma nova exportação em Perfil → Meus dados.\n\nSe não foi você quem pediu, troque sua senha.\n\nEquipe VetClube",
			HTML: `<p>Olá!</p><p>A cópia dos seus dados que você pediu está pronta. Baixe o arquivo ZIP (é preciso estar conectado à sua conta):</p><p><a href="` +
				link + `">` + link + `</a></p><p>O link vale até ` + until + `. Depois disso, peça uma nova exportação em Perfil → Meus dados.</p><p>Se não foi você quem pediu, troque sua senha.</p><p>Equipe VetClube</p>`})
	}
	if err != nil {
		// Not sent: the next attempt tries again.
		_, _ = s.pool.Exec(ctx, `UPDATE lgpd_requests SET detail = '' WHERE id = $1`, requestID)
		return fmt.Errorf("mail export: %w", err)
	}
	if s.o.Notifier != nil {
		_ = s.o.Notifier.NotifyLGPD(ctx, *userID, "lgpd-export:"+requestID, "Seus dados estão prontos",
			"Baixe a cópia dos seus dados em Perfil → Meus dados.", "/profile")
	}
	return nil
}

var saoPaulo = func() *time.Location {
	l, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		return time.FixedZone("BRT", -3*3600)
	}
	return l
}()

// ExpireExport removes an export's ZIP once its link has expired.
func (s *Service) ExpireExport(ctx context.Context, requestID string) error {
	var key string
	err := s.pool.QueryRow(ctx, `SELECT file_key FROM lgpd_requests WHERE id = $1 AND kind = 'export' AND status = 'pronto' AND expires_at <= $2`,
		requestID, s.o.Now()).Scan(&key)
	if postgres.IsNoRows(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("expire export: %w", err)
	}
	if err := s.o.Store.Delete(ctx, key); err != nil {
		return fmt.Errorf("delete export file: %w", err)
	}
	_, err = s.pool.Exec(ctx, `UPDATE lgpd_requests SET status = 'expirado', file_key = '', updated_at = now() WHERE id = $1`, requestID)
	return err
}

// ExportFile is the ZIP of userID's export requestID, as a local file path
// and a download name. Another member's export, or an unknown one, is not found.
func (s *Service) ExportFile(ctx context.Context, userID, requestID string) (string, string, error) {
	if !validUUID(requestID) {
		return "", "", core.Errorf(core.ENOTFOUND, MsgExportNotFound)
	}
	var status, key string
	var expires *time.Time
	var requested time.Time
	err := s.pool.QueryRow(ctx, `SELECT status, file_key, expires_at, requested_at FROM lgpd_requests
		WHERE id = $1 AND user_id = $2 AND kind = 'export'`, requestID, userID).Scan(&status, &key, &expires, &requested)
	if postgres.IsNoRows(err) {
		return "", "", core.Errorf(core.ENOTFOUND, MsgExportNotFound)
	}
	if err != nil {
		return "", "", fmt.Errorf("find export: %w", err)
	}
	switch {
	case status == StatusExpired || (status == StatusReady && expires != nil && !s.o.Now().Before(*expires)):
		return "", "", core.Errorf(core.ENOTFOUND, MsgExportExpired)
	case status != StatusReady:
		return "", "", core.Errorf(core.ECONFLICT, MsgExportNotReady)
	}
	p, err := s.o.Store.LocalPath(key)
	if err != nil {
		return "", "", fmt.Errorf("export file: %w", err)
	}
	return p, "vetclube-meus-dados-" + requested.In(saoPaulo).Format("2006-01-02") + ".zip", nil
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}

// --- Deletion ---------------------------------------------------------------

// SendDeletionCode e-mails userID a 6-digit code that confirms a deletion.
func (s *Service) SendDeletionCode(ctx context.Context, userID string) error {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return err
	}
	code := fmt.Sprintf("%06d", n.Int64())
	to, err := s.o.Accounts.Email(ctx, userID)
	if err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO lgpd_deletion_codes (user_id, code_hash, expires_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, failures = 0`,
		userID, codeHash(userID, code), s.o.Now().Add(codeTTL)); err != nil {
		return fmt.Errorf("store deletion code: %w", err)
	}
	return s.o.Mailer.Send(ctx, mail.Message{To: to, Subject: "Código para excluir sua conta no VetClube",
		Text: "Seu código para confirmar a exclusão da conta é " + code + ". Ele vale 15 minutos.\n\nSe não foi você, ignore este e-mail e troque sua senha.",
		HTML: "<p>Seu código para confirmar a exclusão da conta é <strong>" + code + "</strong>. Ele vale 15 minutos.</p><p>Se não foi você, ignore este e-mail e troque sua senha.</p>"})
}

func codeHash(userID, code string) []byte {
	h := sha256.Sum256([]byte("lgpd-deletion:" + userID + ":" + code))
	return h[:]
}

// useCode spends userID's deletion code when it matches; wrong tries count.
func (s *Service) useCode(ctx context.Context, userID, code string) (bool, error) {
	var ok bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var stored []byte
		var expires time.Time
		var failures int
		err := tx.QueryRow(ctx, `SELECT code_hash, expires_at, failures FROM lgpd_deletion_codes WHERE user_id = $1 FOR UPDATE`, userID).
			Scan(&stored, &expires, &failures)
		if postgres.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if !s.o.Now().Before(expires) || failures >= codeTries {
			_, err := tx.Exec(ctx, `DELETE FROM lgpd_deletion_codes WHERE user_id = $1`, userID)
			return err
		}
		if subtle.ConstantTimeCompare(stored, codeHash(userID, strings.TrimSpace(code))) == 1 {
			ok = true
			_, err := tx.Exec(ctx, `DELETE FROM lgpd_deletion_codes WHERE user_id = $1`, userID)
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE lgpd_deletion_codes SET failures = failures + 1 WHERE user_id = $1`, userID)
		return err
	})
	return ok, err
}

// DeletionInput confirms a deletion: the password or the e-mailed code.
type DeletionInput struct {
	Password string `json:"password"`
	Code     string `json:"code"`
}

// RequestDeletion schedules userID's account deletion at the end of the
// grace, signs the member out everywhere (a sign-in then cancels it) and
// tells them by e-mail. Asking again while one is scheduled answers it.
func (s *Service) RequestDeletion(ctx context.Context, userID string, in DeletionInput) (Request, error) {
	var how string
	switch {
	case in.Password != "":
		ok, err := s.o.Accounts.CheckPassword(ctx, userID, in.Password)
		if err != nil {
			return Request{}, err
		}
		if !ok {
			return Request{}, core.Invalid(MsgWrongPassword, map[string]string{"password": MsgWrongPassword})
		}
		how = "senha"
	case in.Code != "":
		ok, err := s.useCode(ctx, userID, in.Code)
		if err != nil {
			return Request{}, err
		}
		if !ok {
			return Request{}, core.Invalid(MsgWrongCode, map[string]string{"code": MsgWrongCode})
		}
		how = "codigo"
	default:
		return Request{}, core.Invalid(MsgConfirmNeeded, map[string]string{"password": MsgConfirmNeeded})
	}
	now := s.o.Now()
	var req Request
	var created bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('lgpd-deletion:' || $1))`, userID); err != nil {
			return err
		}
		var err error
		req, err = scanRequest(tx.QueryRow(ctx, `SELECT `+requestColumns+` FROM lgpd_requests
			WHERE user_id = $1 AND kind = 'deletion' AND status IN ('agendada', 'processando')`, userID))
		if err == nil || !postgres.IsNoRows(err) {
			return err
		}
		created = true
		req, err = scanRequest(tx.QueryRow(ctx, `INSERT INTO lgpd_requests (user_id, kind, status, requested_at, scheduled_for, detail, updated_at)
			VALUES ($1, 'deletion', 'agendada', $2, $3, $4, $2) RETURNING `+requestColumns, userID, now, now.Add(DeletionGrace), how))
		return err
	})
	if err != nil {
		return Request{}, fmt.Errorf("schedule deletion: %w", err)
	}
	if !created {
		return req, nil
	}
	if s.o.Workflows != nil {
		if err := s.o.Workflows.StartDeletion(ctx, req.ID, *req.ScheduledFor); err != nil {
			_, _ = s.pool.Exec(ctx, `DELETE FROM lgpd_requests WHERE id = $1`, req.ID)
			s.o.Log.Error("start deletion", "request", req.ID, "err", err)
			return Request{}, core.Errorf(core.EUNAVAILABLE, MsgUnavailable)
		}
	}
	if err := s.o.Accounts.EndAllSessions(ctx, userID); err != nil {
		return Request{}, err
	}
	if to, err := s.o.Accounts.Email(ctx, userID); err == nil {
		until := req.ScheduledFor.In(saoPaulo).Format("02/01/2006")
		if err := s.o.Mailer.Send(ctx, mail.Message{To: to, Subject: "Exclusão da sua conta no VetClube agendada",
			Text: "Recebemos o seu pedido de exclusão da conta. Ela será excluída definitivamente em " + until +
				".\n\nMudou de ideia? Basta entrar novamente no VetClube até lá: a exclusão é cancelada automaticamente.\n\n" + s.o.PublicURL + "/login\n\nEquipe VetClube",
			HTML: "<p>Recebemos o seu pedido de exclusão da conta. Ela será excluída definitivamente em <strong>" + until +
				"</strong>.</p><p>Mudou de ideia? Basta <a href=\"" + s.o.PublicURL + "/login\">entrar novamente no VetClube</a> até lá: a exclusão é cancelada automaticamente.</p><p>Equipe VetClube</p>"}); err != nil {
			s.o.Log.Warn("mail deletion scheduled", "err", err)
		}
	}
	return req, nil
}

// PendingDeletion is userID's scheduled deletion, if any.
func (s *Service) PendingDeletion(ctx context.Context, userID string) (*Request, error) {
	req, err := scanRequest(s.pool.QueryRow(ctx, `SELECT `+requestColumns+` FROM lgpd_requests
		WHERE user_id = $1 AND kind = 'deletion' AND status = 'agendada'`, userID))
	if postgres.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pending deletion: %w", err)
	}
	return &req, nil
}

// CancelDeletion cancels userID's scheduled deletion (reason 'login' when
// a sign-in did it, 'membro' from the page); false when none was scheduled.
func (s *Service) CancelDeletion(ctx context.Context, userID, reason string) (bool, error) {
	var id string
	err := s.pool.QueryRow(ctx, `UPDATE lgpd_requests SET status = 'cancelada', detail = $2, finished_at = $3, updated_at = now()
		WHERE user_id = $1 AND kind = 'deletion' AND status = 'agendada' RETURNING id::text`, userID, reason, s.o.Now()).Scan(&id)
	if postgres.IsNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("cancel deletion: %w", err)
	}
	if s.o.Workflows != nil {
		if err := s.o.Workflows.CancelDeletion(ctx, id); err != nil {
			// The workflow re-reads the row before erasing anything.
			s.o.Log.Warn("signal deletion cancelled", "request", id, "err", err)
		}
	}
	if reason == "login" {
		if s.o.Notifier != nil {
			_ = s.o.Notifier.NotifyLGPD(ctx, userID, "lgpd-cancel:"+id, "Exclusão da conta cancelada", MsgCancelledSignIn, "/profile")
		}
		if to, err := s.o.Accounts.Email(ctx, userID); err == nil {
			_ = s.o.Mailer.Send(ctx, mail.Message{To: to, Subject: "A exclusão da sua conta foi cancelada",
				Text: MsgCancelledSignIn + " Sua conta e seus dados continuam no VetClube.\n\nSe quiser excluí-la, peça de novo em Perfil → Meus dados.",
				HTML: "<p>" + MsgCancelledSignIn + " Sua conta e seus dados continuam no VetClube.</p><p>Se quiser excluí-la, peça de novo em Perfil → Meus dados.</p>"})
		}
	}
	return true, nil
}

// OnSignIn is the sign-in hook: a sign-in during the grace cancels the deletion.
func (s *Service) OnSignIn(ctx context.Context, userID string) {
	if _, err := s.CancelDeletion(ctx, userID, "login"); err != nil {
		s.o.Log.Error("cancel deletion at sign-in", "err", err)
	}
}

// DeletionSteps are the steps a deletion runs, in order.
func (s *Service) DeletionSteps() []string { return s.o.Registry.Steps() }

// BeginDeletion moves a scheduled deletion whose grace has ended to
// 'processando' and answers whether to erase (false: cancelled, or not due).
// A deletion already processing answers true, so a retried workflow resumes.
func (s *Service) BeginDeletion(ctx context.Context, requestID string) (bool, error) {
	var status string
	err := s.pool.QueryRow(ctx, `UPDATE lgpd_requests SET status = CASE WHEN status = 'agendada' AND scheduled_for <= $2 THEN 'processando' ELSE status END,
		updated_at = now() WHERE id = $1 AND kind = 'deletion' RETURNING status`, requestID, s.o.Now()).Scan(&status)
	if postgres.IsNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("begin deletion: %w", err)
	}
	if status == StatusProcessing {
		_, err = s.pool.Exec(ctx, `INSERT INTO lgpd_deletion_reports (request_id) VALUES ($1) ON CONFLICT DO NOTHING`, requestID)
		return err == nil, err
	}
	return false, nil
}

// StepReport is one deletion step's outcome, without personal data.
type StepReport struct {
	Step  string    `json:"step"`
	Count int64     `json:"count"`
	At    time.Time `json:"at"`
}

// EraseStep runs one deletion step for a processing request and records its
// count in the report. Erasers are idempotent, so a retried step is safe.
func (s *Service) EraseStep(ctx context.Context, requestID, step string) error {
	e, ok := s.o.Registry.eraser(step)
	if !ok {
		return fmt.Errorf("unknown deletion step %q", step)
	}
	var userID *string
	var status string
	err := s.pool.QueryRow(ctx, `SELECT user_id::text, status FROM lgpd_requests WHERE id = $1 AND kind = 'deletion'`, requestID).Scan(&userID, &status)
	if err != nil {
		return fmt.Errorf("deletion step %s: %w", step, err)
	}
	if status != StatusProcessing {
		return nil
	}
	var n int64
	if userID != nil {
		if n, err = e.EraseUser(ctx, *userID); err != nil {
			return fmt.Errorf("deletion step %s: %w", step, err)
		}
	}
	entry, _ := json.Marshal([]StepReport{{Step: step, Count: n, At: s.o.Now().UTC()}})
	// The first run's count stays: a retry after success touches nothing.
	_, err = s.pool.Exec(ctx, `UPDATE lgpd_deletion_reports SET steps = steps || $2::jsonb
		WHERE request_id = $1 AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(steps) e WHERE e->>'step' = $3)`, requestID, string(entry), step)
	return err
}

// FinishDeletion marks a processed deletion done.
func (s *Service) FinishDeletion(ctx context.Context, requestID string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE lgpd_requests SET status = 'concluida', finished_at = $2, updated_at = now()
		WHERE id = $1 AND status = 'processando'`, requestID, s.o.Now()); err != nil {
		return fmt.Errorf("finish deletion: %w", err)
	}
	_, err := s.pool.Exec(ctx, `UPDATE lgpd_deletion_reports SET finished_at = $2 WHERE request_id = $1`, requestID, s.o.Now())
	return err
}

// RunDeletion runs every step of a deletion at once (BeginDeletion, each
// step, FinishDeletion): what the workflow does, for tests and for running
// without a workflow engine.
func (s *Service) RunDeletion(ctx context.Context, requestID string) (bool, error) {
	ok, err := s.BeginDeletion(ctx, requestID)
	if err != nil || !ok {
		return false, err
	}
	for _, step := range s.DeletionSteps() {
		if err := s.EraseStep(ctx, requestID, step); err != nil {
			return false, err
		}
	}
	return true, s.FinishDeletion(ctx, requestID)
}

// RunDueDeletions runs every deletion whose grace has ended (the periodic
// sweep when no workflow engine runs them).
func (s *Service) RunDueDeletions(ctx context.Context) (int, error) {
	rows, err := s.pool.Query(ctx, `SELECT id::text FROM lgpd_requests WHERE kind = 'deletion'
		AND (status = 'processando' OR (status = 'agendada' AND scheduled_for <= $1))`, s.o.Now())
	if err != nil {
		return 0, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, id := range ids {
		ok, err := s.RunDeletion(ctx, id)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			n++
		}
	}
	return n, errors.Join(errs...)
}

// Report is a deletion's recorded steps.
func (s *Service) Report(ctx context.Context, requestID string) ([]StepReport, error) {
	var steps []StepReport
	err := s.pool.QueryRow(ctx, `SELECT steps FROM lgpd_deletion_reports WHERE request_id = $1`, requestID).Scan(&steps)
	if postgres.IsNoRows(err) {
		return nil, nil
	}
	return steps, err
}

// EraseExports is the package's own deletion step: the member's export ZIPs.
func (s *Service) EraseExports(ctx context.Context, userID string) (int64, error) {
	rows, err := s.pool.Query(ctx, `SELECT id::text, file_key FROM lgpd_requests WHERE user_id = $1 AND kind = 'export' AND file_key <> ''`, userID)
	if err != nil {
		return 0, err
	}
	type exp struct{ id, key string }
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (exp, error) {
		var e exp
		return e, r.Scan(&e.id, &e.key)
	})
	if err != nil {
		return 0, err
	}
	for _, e := range list {
		if err := s.o.Store.Delete(ctx, e.key); err != nil {
			return 0, err
		}
		if _, err := s.pool.Exec(ctx, `UPDATE lgpd_requests SET status = 'expirado', file_key = '', updated_at = now() WHERE id = $1`, e.id); err != nil {
			return 0, err
		}
	}
	return int64(len(list)), nil
}
