package app_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/vetclube/vetclube/core/app/apptest"
)

// smtpCatcher is a real SMTP server that holds every message until release
// is closed, so a test can tell whether an answer waited on it.
type smtpCatcher struct {
	release chan struct{}
	mu      sync.Mutex
	rcpts   []string
	bodies  []string
}

type smtpSession struct {
	c  *smtpCatcher
	to []string
}

func (c *smtpCatcher) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{c: c}, nil }
func (s *smtpSession) Mail(string, *smtp.MailOptions) error        { return nil }
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	<-s.c.release
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.rcpts = append(s.c.rcpts, s.to...)
	s.c.bodies = append(s.c.bodies, string(b))
	return err
}
func (s *smtpSession) Reset()        {}
func (s *smtpSession) Logout() error { return nil }

// With SMTP configured, a request only queues its email: the answer does not
// wait for the SMTP server, and the outbox worker delivers the message once
// the server accepts it.
func TestSMTPMailGoesThroughTheOutbox(t *testing.T) {
	c := &smtpCatcher{release: make(chan struct{})}
	srv := smtp.NewServer(c)
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	released := false
	t.Cleanup(func() {
		if !released {
			close(c.release)
		}
	})

	s := apptest.Start(t, map[string]string{"SMTP_URL": "smtp://" + ln.Addr().String()})
	if s.App.Mailbox != nil {
		t.Fatal("the dev mailbox must be off when SMTP_URL is set")
	}
	res := s.Client(t).Do("POST", "/api/auth/signup", map[string]string{
		"first_name": "Carla", "last_name": "Souza", "email": "carla.smtp@example.com", "password": "Vet!Clube2026seguro"})
	// The SMTP server holds every message until released: an answer here
	// proves the request did not wait on it.
	if res.Status != http.StatusCreated {
		t.Fatalf("signup: %d %s", res.Status, res.Body)
	}
	close(c.release)
	released = true
	deadline := time.Now().Add(30 * time.Second)
	for {
		c.mu.Lock()
		got := strings.Join(c.rcpts, ",")
		body := strings.Join(c.bodies, "\n")
		c.mu.Unlock()
		if strings.Contains(got, "carla.smtp@example.com") {
			if !strings.Contains(body, "/confirmar-email") {
				t.Fatalf("delivered message has no confirmation link:\n%s", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no message delivered through SMTP within 30 s (recipients so far: %q)", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// It went through the durable outbox (retried on failure), and is marked
	// sent there once the server accepted it.
	for {
		var sent bool
		err := s.App.Pool.QueryRow(context.Background(),
			`SELECT sent_at IS NOT NULL FROM mail_outbox WHERE recipient = $1`, "carla.smtp@example.com").Scan(&sent)
		if err != nil {
			t.Fatalf("outbox row for the confirmation: %v", err)
		}
		if sent {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the outbox row was not marked sent")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
