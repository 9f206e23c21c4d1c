package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vetclube/vetclube/core/postgres"
)

// Kinds of account_mail_requests rows.
const (
	mailConfirm = "confirm" // a confirmation link, if the account exists unconfirmed
	// mailConfirmPremium: a confirmation link that also signs in and continues to the checkout (/register-premium).
	mailConfirmPremium = "confirm_premium"
	mailReset          = "reset"      // a password-reset link, if the account exists
	mailRegistered     = "registered" // tell the owner someone tried to sign up with the address
)

// mailRequestPoll is how often the loop looks for requests another instance
// queued (this instance's own requests wake it at once).
const mailRequestPoll = time.Second

// execer is a pool or a transaction.
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// requestMail queues an account email for address. Requests for addresses
// with and without an account do exactly this and nothing more, so their
// answers and timings match; ProcessMailRequests decides what, if anything,
// to send. The request's time is kept: a link's lifetime counts from it.
func (s *Service) requestMail(ctx context.Context, db execer, kind, email string) error {
	if _, err := db.Exec(ctx, `INSERT INTO account_mail_requests (kind, email, created_at) VALUES ($1, $2, $3)`,
		kind, email, s.now()); err != nil {
		return fmt.Errorf("queue %s email: %w", kind, err)
	}
	return nil
}

// kickMail wakes this process's request loop.
func (s *Service) kickMail() {
	select {
	case s.mailKick <- struct{}{}:
	default:
	}
}

// ProcessMailRequests resolves every queued account email: it creates the
// link's token and hands the email to the mailer (the outbox queue in
// production). Rows are claimed with FOR UPDATE SKIP LOCKED, so any number of
// instances may run it at once and each request is handled once.
func (s *Service) ProcessMailRequests(ctx context.Context) error {
	for {
		done, err := s.processMailRequest(ctx)
		if err != nil || done {
			return err
		}
	}
}

// processMailRequest handles one request; done is true when none is left.
func (s *Service) processMailRequest(ctx context.Context) (done bool, err error) {
	var kind, email, name, token, code string
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var requested time.Time
		err := tx.QueryRow(ctx, `DELETE FROM account_mail_requests WHERE id = (
				SELECT id FROM account_mail_requests ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
			RETURNING kind, email, created_at`).Scan(&kind, &email, &requested)
		if postgres.IsNoRows(err) {
			done = true
			return nil
		}
		if err != nil {
			return fmt.Errorf("claim mail request: %w", err)
		}
		var userID string
		var meta map[string]string
		var confirmed *time.Time
		err = tx.QueryRow(ctx, `SELECT id, metadata, email_confirmed_at FROM users WHERE email = $1`, email).Scan(&userID, &meta, &confirmed)
		if postgres.IsNoRows(err) {
			kind = "" // no account: nothing to send
			return nil
		}
		if err != nil {
			return fmt.Errorf("find account: %w", err)
		}
		// Only a confirmed account is greeted by name: an unconfirmed one's
		// name is whatever someone typed into the sign-up form with this
		// address, and the e-mail must not carry it to the address's owner.
		if confirmed != nil {
			name = firstNameOf(meta)
		}
		switch kind {
		case mailConfirm, mailConfirmPremium:
			if confirmed != nil {
				kind = ""
				return nil
			}
			purpose := "confirm"
			if kind == mailConfirmPremium {
				purpose = "confirm_signin"
			}
			token, err = s.newEmailTokenAt(ctx, tx, userID, purpose, requested, ConfirmTTL)
		case mailReset:
			token, err = s.newEmailTokenAt(ctx, tx, userID, "reset", requested, ResetTTL)
		case mailLoginCode:
			if confirmed == nil {
				kind = ""
				return nil
			}
			code, token, err = s.newLoginCode(ctx, tx, userID, requested)
		}
		return err
	})
	if err != nil || done {
		return done, err
	}
	switch kind {
	case mailConfirm:
		s.sendConfirmation(ctx, email, name, token, false)
	case mailConfirmPremium:
		s.sendConfirmation(ctx, email, name, token, true)
	case mailReset:
		s.sendReset(ctx, email, name, token)
	case mailRegistered:
		s.sendAlreadyRegistered(ctx, email, name)
	case mailLoginCode:
		s.sendLoginCode(ctx, email, name, code, token)
	}
	return false, nil
}

// runMailRequests processes requests when kicked and every mailRequestPoll
// until ctx ends.
func (s *Service) runMailRequests(ctx context.Context) {
	t := time.NewTicker(mailRequestPoll)
	defer t.Stop()
	for {
		if err := s.ProcessMailRequests(ctx); err != nil && !errors.Is(err, context.Canceled) && ctx.Err() == nil {
			s.log.WarnContext(ctx, "account mail requests", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.mailKick:
		case <-t.C:
		}
	}
}
