package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/auth/password"
	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/core/postgres"
)

// SignInHook runs after every new session (password, code, Google, passkey):
// the member's data package cancels a scheduled account deletion with it.
// It must be quick and never fails the sign-in.
type SignInHook func(ctx context.Context, userID string)

// AddSignInHook registers fn; call it while wiring, before serving.
func (s *Service) AddSignInHook(fn SignInHook) {
	s.hooksMu.Lock()
	defer s.hooksMu.Unlock()
	s.onSignIn = append(s.onSignIn, fn)
}

func (s *Service) runSignInHooks(ctx context.Context, userID string) {
	s.hooksMu.RLock()
	hooks := slices.Clone(s.onSignIn)
	s.hooksMu.RUnlock()
	for _, h := range hooks {
		h(context.WithoutCancel(ctx), userID)
	}
}

// CheckPassword reports whether pass is userID's password; an account
// without a password (Google only) never matches.
func (s *Service) CheckPassword(ctx context.Context, userID, pass string) (bool, error) {
	var hash *string
	err := s.pool.QueryRow(ctx, `SELECT password_hash FROM users WHERE id = $1`, userID).Scan(&hash)
	if postgres.IsNoRows(err) || (err == nil && hash == nil) {
		// The same work as a real check, so both answers take alike.
		_, _ = password.Verify(pass, s.dummyHash)
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read password: %w", err)
	}
	ok, err := password.Verify(pass, *hash)
	if err != nil {
		return false, fmt.Errorf("verify password: %w", err)
	}
	return ok, nil
}

// EndAllSessions signs userID out of every session.
func (s *Service) EndAllSessions(ctx context.Context, userID string) error {
	rows, err := s.pool.Query(ctx, `SELECT id::text FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, userID)
	if err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.EndSession(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// ExportUserData is the account's part of the member's data: the account
// row (never the password hash), linked sign-in providers and sessions.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	var out struct {
		Account    json.RawMessage   `json:"conta"`
		Identities []json.RawMessage `json:"provedores"`
		Sessions   []json.RawMessage `json:"sessoes"`
	}
	rows, err := lgpd.Rows(ctx, s.pool, `SELECT json_build_object('id', id, 'email', email, 'criada_em', created_at,
		'email_confirmado_em', email_confirmed_at) FROM users WHERE id = $1`, userID)
	if err != nil {
		return nil, err
	}
	if len(rows) == 1 {
		out.Account = rows[0]
	}
	if out.Identities, err = lgpd.Rows(ctx, s.pool, `SELECT json_build_object('provedor', provider, 'email', email, 'criado_em', created_at)
		FROM user_identities WHERE user_id = $1`, userID); err != nil {
		return nil, err
	}
	if out.Sessions, err = lgpd.Rows(ctx, s.pool, `SELECT json_build_object('navegador', user_agent, 'criada_em', created_at,
		'ultimo_uso', last_used_at, 'encerrada_em', revoked_at) FROM sessions WHERE user_id = $1 ORDER BY created_at`, userID); err != nil {
		return nil, err
	}
	return out, nil
}

// EraseAccount is the account's deletion step, the last one: what names the
// e-mail outside the account's rows (lockouts, mail requests), then the
// account itself, whose rows cascade to everything tied to it.
func (s *Service) EraseAccount(ctx context.Context, userID string) (int64, error) {
	var email string
	err := s.pool.QueryRow(ctx, `SELECT email FROM users WHERE id = $1`, userID).Scan(&email)
	if postgres.IsNoRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read account: %w", err)
	}
	var n int64
	for _, q := range []string{
		`DELETE FROM login_lockouts WHERE email = $1`,
		`DELETE FROM account_mail_requests WHERE email = $1`,
	} {
		tag, err := s.pool.Exec(ctx, q, email)
		if err != nil {
			return 0, fmt.Errorf("erase account: %w", err)
		}
		n += tag.RowsAffected()
	}
	s.InvalidatePrincipalsOf(userID)
	// The append-only histories (content revisions, editorial events) let
	// the deleted account's rows lose their author inside this transaction.
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT set_config('vetclube.anonymise_actor', 'on', true)`); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, userID)
		n += tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("erase account: %w", err)
	}
	return n, nil
}
