package mail_test

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	vmail "github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// catcher is a real SMTP server (emersion/go-smtp) that keeps what it receives.
type catcher struct {
	mu       sync.Mutex
	authed   []string
	from, to []string
	data     []string
}

type session struct{ c *catcher }

func (b *catcher) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{b}, nil }

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "mailer" || pass != "s3gredo" {
			return errors.New("bad credentials")
		}
		s.c.mu.Lock()
		s.c.authed = append(s.c.authed, user)
		s.c.mu.Unlock()
		return nil
	}), nil
}
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.from = append(s.c.from, from)
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.to = append(s.c.to, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.data = append(s.c.data, string(b))
	return err
}
func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }

func TestSMTPSendsMultipartWithAuth(t *testing.T) {
	c := &catcher{}
	srv := smtp.NewServer(c)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	sender, err := vmail.NewSMTP("smtp://mailer:s3gredo@"+ln.Addr().String(), "VetClube <nao-responda@vetclube.com.br>")
	if err != nil {
		t.Fatal(err)
	}
	msg := vmail.Message{To: "ana@example.com", Subject: "Confirme seu email no VetClube",
		Text: "Olá! Confirme: http://x/confirmar-email?token=abc", HTML: `<p>Olá! <a href="http://x/confirmar-email?token=abc">Confirmar</a></p>`}
	if err := sender.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.authed) != 1 || len(c.from) != 1 || c.from[0] != "nao-responda@vetclube.com.br" || len(c.to) != 1 || c.to[0] != "ana@example.com" {
		t.Fatalf("envelope auth=%v from=%v to=%v", c.authed, c.from, c.to)
	}
	parsed, err := mail.ReadMessage(strings.NewReader(c.data[0]))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(parsed.Header.Get("Subject"))
	if subject != msg.Subject {
		t.Errorf("subject %q", subject)
	}
	_, params, err := mime.ParseMediaType(parsed.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	mr := multipart.NewReader(parsed.Body, params["boundary"])
	var types, bodies []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p) // multipart decodes quoted-printable
		types = append(types, strings.Split(p.Header.Get("Content-Type"), ";")[0])
		bodies = append(bodies, string(b))
	}
	if strings.Join(types, ",") != "text/plain,text/html" || bodies[0] != msg.Text || bodies[1] != msg.HTML {
		t.Errorf("parts %v %q", types, bodies)
	}

	bad, _ := vmail.NewSMTP("smtp://mailer:errada@"+ln.Addr().String(), "VetClube <nao-responda@vetclube.com.br>")
	if err := bad.Send(context.Background(), msg); err == nil {
		t.Error("wrong SMTP password accepted")
	}
	if _, err := vmail.NewSMTP("http://nope", "x@y.z"); err == nil {
		t.Error("a non-smtp URL was accepted")
	}
}

func TestMailboxNewestFirstWithLinks(t *testing.T) {
	box := vmail.NewMailbox(pgtest.New(t))
	ctx := context.Background()
	for _, to := range []string{"a@example.com", "b@example.com"} {
		err := box.Send(ctx, vmail.Message{To: to, Subject: "Olá " + to,
			Text: "link: http://127.0.0.1:8080/redefinir-senha?token=t1&x=1", HTML: `<a href="http://127.0.0.1:8080/redefinir-senha?token=t1&amp;x=1">x</a>`})
		if err != nil {
			t.Fatal(err)
		}
	}
	all, err := box.List(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].To != "b@example.com" {
		t.Fatalf("not newest first: %+v", all)
	}
	if len(all[0].Links) != 1 || all[0].Links[0] != "http://127.0.0.1:8080/redefinir-senha?token=t1&x=1" {
		t.Errorf("links %v", all[0].Links)
	}
	only, _ := box.List(ctx, "a@example.com", 10)
	if len(only) != 1 || only[0].To != "a@example.com" {
		t.Errorf("filter by recipient: %+v", only)
	}
}
