package auth_test

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/core/mail"
)

// userID is the account id of email.
func (f *fixture) userID(t *testing.T, email string) string {
	t.Helper()
	var id string
	if err := f.pool.QueryRow(context.Background(), `SELECT id::text FROM users WHERE email = $1`, email).Scan(&id); err != nil {
		t.Fatalf("user %s: %v", email, err)
	}
	return id
}

// mails are the messages to email, newest first.
func (f *fixture) mails(t *testing.T, email string) []mail.Stored {
	t.Helper()
	f.drain(t)
	msgs, err := f.box.List(context.Background(), email, 100)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// mailCountSubject counts the messages to email with subject.
func (f *fixture) mailCountSubject(t *testing.T, email, subject string) int {
	t.Helper()
	n := 0
	for _, m := range f.mails(t, email) {
		if m.Subject == subject {
			n++
		}
	}
	return n
}
