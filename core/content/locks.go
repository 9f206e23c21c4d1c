package content

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// LockTTL is how long an edit lock outlives its last heartbeat.
const LockTTL = 5 * time.Minute

// Messages about edit locks.
const (
	MsgLockTakenOver = "Outra pessoa assumiu a edição deste conteúdo."
	MsgSaveTakenOver = "Outra pessoa assumiu a edição deste conteúdo. Suas alterações não foram salvas."
)

// Lock is the edit lock of an item. Token is set only for its holder, who
// sends it with heartbeats and saves (Actor.LockToken).
type Lock struct {
	ItemID   string `json:"item_id"`
	HolderID string `json:"holder_id"`
	// HolderName is who holds the lock, as the backoffice names people.
	HolderName  string    `json:"holder_name"`
	Mine        bool      `json:"mine"`
	Token       string    `json:"token,omitempty"`
	AcquiredAt  time.Time `json:"acquired_at"`
	HeartbeatAt time.Time `json:"heartbeat_at"`
	ExpiresAt   time.Time `json:"expires_at"`
}

func (s *Store) lockArgs(itemID, userID string) error {
	if uuid.Validate(itemID) != nil {
		return core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	if uuid.Validate(userID) != nil {
		return fmt.Errorf("content: lock holder %q is not a uuid", userID)
	}
	return nil
}

func scanLock(row pgx.Row, userID string) (Lock, error) {
	var l Lock
	err := row.Scan(&l.ItemID, &l.HolderID, &l.Token, &l.AcquiredAt, &l.HeartbeatAt, &l.HolderName)
	if err != nil {
		return Lock{}, err
	}
	l.ExpiresAt = l.HeartbeatAt.Add(LockTTL)
	l.Mine = l.HolderID == userID
	if !l.Mine {
		l.Token = ""
	}
	return l, nil
}

const lockColumns = `item_id::text, holder_id::text, token::text, acquired_at, heartbeat_at,
	coalesce((SELECT coalesce(nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''), u.email)
		FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = holder_id), '')`

// AcquireLock opens item id for editing by userID. It succeeds (Mine) when
// the item is free, its lock expired, or userID already holds it (the same
// token then, so two tabs of one editor share it); otherwise it returns the
// other holder's lock, for a read-only view that says who is editing.
func (s *Store) AcquireLock(ctx context.Context, itemID, userID string) (Lock, error) {
	return s.lock(ctx, itemID, userID, false)
}

// TakeOverLock gives item id's lock to userID whoever holds it, with a new
// token: the previous holder's next heartbeat and save are refused.
func (s *Store) TakeOverLock(ctx context.Context, itemID, userID string) (Lock, error) {
	return s.lock(ctx, itemID, userID, true)
}

func (s *Store) lock(ctx context.Context, itemID, userID string, force bool) (Lock, error) {
	if err := s.lockArgs(itemID, userID); err != nil {
		return Lock{}, err
	}
	now := s.now()
	l, err := scanLock(s.pool.QueryRow(ctx, `INSERT INTO content_locks AS l (item_id, holder_id, token, acquired_at, heartbeat_at)
		SELECT id, $2, gen_random_uuid(), $3, $3 FROM content_items WHERE id = $1
		ON CONFLICT (item_id) DO UPDATE SET
			token = CASE WHEN l.holder_id = EXCLUDED.holder_id AND NOT $4 THEN l.token ELSE EXCLUDED.token END,
			acquired_at = CASE WHEN l.holder_id = EXCLUDED.holder_id AND NOT $4 THEN l.acquired_at ELSE EXCLUDED.acquired_at END,
			holder_id = EXCLUDED.holder_id, heartbeat_at = EXCLUDED.heartbeat_at
		WHERE $4 OR l.holder_id = EXCLUDED.holder_id OR l.heartbeat_at <= $3 - make_interval(secs => $5)
		RETURNING `+lockColumns, itemID, userID, now, force, LockTTL.Seconds()), userID)
	if err == nil {
		return l, nil
	}
	if !postgres.IsNoRows(err) {
		return Lock{}, fmt.Errorf("acquire lock: %w", err)
	}
	// Either the item does not exist or someone else holds a live lock.
	l, err = scanLock(s.pool.QueryRow(ctx, `SELECT `+lockColumns+` FROM content_locks WHERE item_id = $1`, itemID), userID)
	if postgres.IsNoRows(err) {
		return Lock{}, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	if err != nil {
		return Lock{}, fmt.Errorf("read lock: %w", err)
	}
	return l, nil
}

// HeartbeatLock renews the lock that token stands for. After a take-over it
// is refused (409) with MsgLockTakenOver, so the editor learns at once.
func (s *Store) HeartbeatLock(ctx context.Context, itemID, token string) (Lock, error) {
	if uuid.Validate(itemID) != nil || uuid.Validate(token) != nil {
		return Lock{}, core.Errorf(core.ECONFLICT, MsgLockTakenOver)
	}
	var holder string
	err := s.pool.QueryRow(ctx, `UPDATE content_locks SET heartbeat_at = $3 WHERE item_id = $1 AND token = $2
		RETURNING holder_id::text`, itemID, token, s.now()).Scan(&holder)
	if postgres.IsNoRows(err) {
		return Lock{}, core.Errorf(core.ECONFLICT, MsgLockTakenOver)
	}
	if err != nil {
		return Lock{}, fmt.Errorf("heartbeat lock: %w", err)
	}
	return scanLock(s.pool.QueryRow(ctx, `SELECT `+lockColumns+` FROM content_locks WHERE item_id = $1`, itemID), holder)
}

// ReleaseLock frees the lock token stands for (closing the editor). A lock
// already taken over is left to its new holder.
func (s *Store) ReleaseLock(ctx context.Context, itemID, token string) error {
	if uuid.Validate(itemID) != nil || uuid.Validate(token) != nil {
		return nil
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM content_locks WHERE item_id = $1 AND token = $2`, itemID, token); err != nil {
		return fmt.Errorf("release lock: %w", err)
	}
	return nil
}

// checkLockTx refuses a working-copy save made under a lock token that is no
// longer the item's lock (someone took over). Saves without a token (API,
// imports, plugins) are guarded by the version alone.
func checkLockTx(ctx context.Context, tx pgx.Tx, itemID string, a Actor) error {
	if a.LockToken == "" {
		return nil
	}
	var current string
	err := tx.QueryRow(ctx, `SELECT token::text FROM content_locks WHERE item_id = $1`, itemID).Scan(&current)
	if postgres.IsNoRows(err) {
		return nil // released or expired and cleared: nobody else is editing
	}
	if err != nil {
		return fmt.Errorf("check lock: %w", err)
	}
	if current != a.LockToken {
		return core.Errorf(core.ECONFLICT, MsgSaveTakenOver)
	}
	return nil
}
