package mail

import (
	"context"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/httpx"
)

// Mailbox is the development mailer: it keeps every message in PostgreSQL
// instead of sending it, so sign-up and reset links can be followed locally.
type Mailbox struct {
	pool *pgxpool.Pool
}

// NewMailbox returns a mailbox storing through pool.
func NewMailbox(pool *pgxpool.Pool) *Mailbox { return &Mailbox{pool: pool} }

// Send stores m.
func (b *Mailbox) Send(ctx context.Context, m Message) error {
	_, err := b.pool.Exec(ctx, `INSERT INTO mail_messages (recipient, subject, text_body, html_body)
		VALUES ($1, $2, $3, $4)`, m.To, m.Subject, m.Text, m.HTML)
	if err != nil {
		return fmt.Errorf("store mail to %s: %w", m.To, err)
	}
	return nil
}

// Stored is a message as the mailbox shows it.
type Stored struct {
	ID        int64     `json:"id"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	HTML      string    `json:"html"`
	Links     []string  `json:"links"`
	CreatedAt time.Time `json:"created_at"`
}

// List returns the newest messages first, at most limit, optionally only those to recipient.
func (b *Mailbox) List(ctx context.Context, recipient string, limit int) ([]Stored, error) {
	rows, err := b.pool.Query(ctx, `SELECT id, recipient, subject, text_body, html_body, created_at
		FROM mail_messages WHERE ($1 = '' OR recipient = $1) ORDER BY id DESC LIMIT $2`, recipient, limit)
	if err != nil {
		return nil, fmt.Errorf("list mailbox: %w", err)
	}
	defer rows.Close()
	out := []Stored{}
	for rows.Next() {
		var s Stored
		if err := rows.Scan(&s.ID, &s.To, &s.Subject, &s.Text, &s.HTML, &s.CreatedAt); err != nil {
			return nil, fmt.Errorf("scan mailbox: %w", err)
		}
		s.Links = Links(s.Text, s.HTML)
		out = append(out, s)
	}
	return out, rows.Err()
}

const mailboxLimit = 200

// HandleListJSON serves GET /api/dev/mailbox (?to=email filters by recipient).
func HandleListJSON(log *slog.Logger, b *Mailbox) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		msgs, err := b.List(r.Context(), r.URL.Query().Get("to"), mailboxLimit)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"messages": msgs})
	})
}

var pageTemplate = template.Must(template.New("mailbox").Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Caixa de emails (desenvolvimento)</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
article{border:1px solid #ccc;border-radius:.5rem;padding:1rem;margin:1rem 0}
pre{white-space:pre-wrap}small{color:#555}</style></head><body>
<h1>Caixa de emails (desenvolvimento)</h1>
<p>Emails enviados pelo VetClube enquanto SMTP_URL não está configurado, do mais recente ao mais antigo.</p>
{{range .}}<article><h2>{{.Subject}}</h2><small>Para {{.To}} · {{.CreatedAt.Format "02/01/2006 15:04:05"}}</small>
<pre>{{.Text}}</pre>{{if .Links}}<ul>{{range .Links}}<li><a href="{{.}}">{{.}}</a></li>{{end}}</ul>{{end}}</article>
{{else}}<p>Nenhum email ainda.</p>{{end}}
</body></html>`))

// HandlePage serves the HTML page GET /dev/mailbox. The text body is shown
// (not the HTML body) so no message markup runs inside the page.
func HandlePage(log *slog.Logger, b *Mailbox) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		msgs, err := b.List(r.Context(), r.URL.Query().Get("to"), mailboxLimit)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		return pageTemplate.Execute(w, msgs)
	})
}
