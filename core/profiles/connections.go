package profiles

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Summary is how other features show a member beside their name (a
// connection, a suggestion, a post's author): public fields only.
type Summary struct {
	ID          string   `json:"id"`
	FirstName   string   `json:"first_name"`
	LastName    string   `json:"last_name"`
	AvatarURL   string   `json:"avatar_url"`
	Title       string   `json:"title"`
	Verified    bool     `json:"verified"`
	Specialties []string `json:"specialties"`
}

// SummaryColumns selects a Summary from the profiles table aliased p, for
// features whose queries join it (ScanSummary reads them back in order).
const SummaryColumns = `p.user_id::text, p.first_name, p.last_name, p.avatar_url, p.title, p.verified, p.specialties`

// SummaryDest returns the scan targets for SummaryColumns, to be followed
// by a query's own columns.
func (s *Summary) SummaryDest() []any {
	return []any{&s.ID, &s.FirstName, &s.LastName, &s.AvatarURL, &s.Title, &s.Verified, &s.Specialties}
}

// Normalize replaces a NULL specialty list by an empty one for JSON.
func (s *Summary) Normalize() {
	if s.Specialties == nil {
		s.Specialties = []string{}
	}
}

// EnsureTx creates the profiles of existing users that have none, inside
// the caller's transaction, so that features joining profiles (connections)
// always find both parties.
func (s *Service) EnsureTx(ctx context.Context, tx pgx.Tx, userIDs ...string) error {
	for _, id := range userIDs {
		u, err := userUUID(id)
		if err != nil {
			return err
		}
		if err := ensureOn(ctx, tx, u); err != nil {
			return err
		}
	}
	return nil
}

// AdjustConnectionsCount adds delta to connections_count of every user in
// userIDs, inside the caller's transaction, which must be the one that
// changed the connection: the count then moves exactly when the connection
// does. Rows are updated in id order so that two transactions touching the
// same members never wait on each other in a cycle. The profile is created
// first when missing (its count would otherwise be lost).
func (s *Service) AdjustConnectionsCount(ctx context.Context, tx pgx.Tx, delta int, userIDs ...string) error {
	ids := slices.Clone(userIDs)
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		u, err := userUUID(id)
		if err != nil {
			return err
		}
		if err := ensureOn(ctx, tx, u); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE profiles SET connections_count = connections_count + $2 WHERE user_id = $1`, u, delta); err != nil {
			return fmt.Errorf("adjust connections count: %w", err)
		}
	}
	return nil
}
