// Package points is the VetCoins ledger: an append-only list of credits and
// debits, each with a unique idempotency key, and the per-user totals
// (user_total_points) maintained in the same transaction. The balance is
// challenge + course + post + check-in (+ other) points minus points spent,
// and always equals the sum of the user's ledger rows.
package points

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/postgres"
)

// Kind says where VetCoins came from or went.
type Kind string

const (
	KindCheckin      Kind = "checkin"
	KindCheckinBonus Kind = "checkin_bonus"
	KindCourse       Kind = "course"
	KindChallenge    Kind = "challenge"
	KindPost         Kind = "post"
	KindReferral     Kind = "referral"
	KindPlugin       Kind = "plugin"
	KindRedemption   Kind = "redemption"
	// KindReferralReversal takes back a referral reward (a refund or a
	// dispute): a debit of other_points, never below zero.
	KindReferralReversal Kind = "referral_reversal"
	// KindRedemptionRefund gives back the VetCoins of a redemption that was
	// refunded (a failed delivery, a staff refund): a positive amount that
	// takes back points_spent, never below zero.
	KindRedemptionRefund Kind = "redemption_refund"
)

// debit reports whether k is a negative kind.
func (k Kind) debit() bool { return k == KindRedemption || k == KindReferralReversal }

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool {
	switch k {
	case KindCheckin, KindCheckinBonus, KindCourse, KindChallenge, KindPost, KindReferral, KindPlugin, KindRedemption, KindReferralReversal,
		KindRedemptionRefund:
		return true
	}
	return false
}

// column is the user_total_points field a kind adds to.
func (k Kind) column() string {
	switch k {
	case KindCheckin, KindCheckinBonus:
		return "checkin_points"
	case KindCourse:
		return "course_points"
	case KindChallenge:
		return "challenge_points"
	case KindPost:
		return "post_points"
	case KindRedemption, KindRedemptionRefund:
		return "points_spent"
	default:
		return "other_points"
	}
}

// EventBalance is the live event sent after every ledger change.
const EventBalance = "points.balance"

// Entry is one ledger row.
type Entry struct {
	ID             int64           `json:"id"`
	UserID         string          `json:"user_id"`
	Amount         int             `json:"amount"`
	Kind           Kind            `json:"kind"`
	IdempotencyKey string          `json:"-"`
	Metadata       json.RawMessage `json:"metadata"`
	CreatedAt      time.Time       `json:"created_at"`
}

// Credited returns which of the idempotency keys have an entry (a credit
// already made), for callers that must tell done work from due work.
func (l *Ledger) Credited(ctx context.Context, keys []string) (map[string]bool, error) {
	out := make(map[string]bool, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	rows, err := l.pool.Query(ctx, `SELECT idempotency_key FROM points_ledger WHERE idempotency_key = ANY($1)`, keys)
	if err != nil {
		return nil, fmt.Errorf("credited keys: %w", err)
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("credited keys: %w", err)
	}
	for _, k := range found {
		out[k] = true
	}
	return out, nil
}

// Balance is a user's total with its breakdown.
type Balance struct {
	ChallengePoints int `json:"challenge_points"`
	CoursePoints    int `json:"course_points"`
	PostPoints      int `json:"post_points"`
	CheckinPoints   int `json:"checkin_points"`
	OtherPoints     int `json:"other_points"`
	PointsSpent     int `json:"points_spent"`
	TotalPoints     int `json:"total_points"`
}

// Ledger reads and writes VetCoins.
type Ledger struct {
	pool *pgxpool.Pool
}

// New returns a ledger on pool.
func New(pool *pgxpool.Pool) *Ledger { return &Ledger{pool: pool} }

// Award records amount VetCoins of kind for userID exactly once per
// idempotencyKey: a repeated call with the same key returns the first entry
// and created=false. Redemptions are negative amounts and may not overdraw.
func (l *Ledger) Award(ctx context.Context, userID string, amount int, kind Kind, idempotencyKey string, metadata map[string]any) (entry Entry, created bool, err error) {
	err = postgres.InTx(ctx, l.pool, func(tx pgx.Tx) error {
		entry, created, err = AwardTx(ctx, tx, userID, amount, kind, idempotencyKey, metadata)
		return err
	})
	return entry, created, err
}

// AwardTx is Award inside the caller's transaction, so that a feature's own
// change (a check-in row) and its credit commit together.
func AwardTx(ctx context.Context, tx Querier, userID string, amount int, kind Kind, idempotencyKey string, metadata map[string]any) (Entry, bool, error) {
	q, err := NewAward(userID, amount, kind, idempotencyKey, metadata)
	if err != nil {
		return Entry{}, false, err
	}
	if kind.debit() || kind == KindRedemptionRefund {
		// A debit (or a refund of one) updates an existing totals row; make sure there is one.
		if _, err := tx.Exec(ctx, `INSERT INTO user_total_points (user_id) VALUES ($1) ON CONFLICT DO NOTHING`, userID); err != nil {
			return Entry{}, false, fmt.Errorf("prepare totals: %w", err)
		}
	}
	e, created, err := q.Scan(tx.QueryRow(ctx, q.SQL, q.Args...))
	if err != nil || created {
		return e, created, err
	}
	existing, err := entryByKey(ctx, tx, idempotencyKey)
	if err != nil {
		return Entry{}, false, err
	}
	if existing.UserID != userID || existing.Amount != amount || existing.Kind != kind {
		return Entry{}, false, core.Errorf(core.ECONFLICT, "Esta chave de idempotência já foi usada em outro lançamento.")
	}
	return existing, false, nil
}

// UsedTx reports, inside the caller's transaction, whether idempotencyKey
// already has an entry: an award with it would be a duplicate.
func UsedTx(ctx context.Context, tx Querier, idempotencyKey string) (bool, error) {
	var used bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM points_ledger WHERE idempotency_key = $1)`, idempotencyKey).Scan(&used); err != nil {
		return false, fmt.Errorf("ledger key used: %w", err)
	}
	return used, nil
}

// AwardedTodayTx is the sum of userID's entries of kind made since midnight
// UTC whose metadata field is value (the plugin, for KindPlugin), read
// inside the caller's transaction so a daily budget can be checked and
// spent under the caller's lock.
func AwardedTodayTx(ctx context.Context, tx Querier, userID string, kind Kind, field, value string) (int64, error) {
	var total int64
	err := tx.QueryRow(ctx, `SELECT coalesce(sum(amount), 0) FROM points_ledger
		WHERE user_id = $1 AND kind = $2 AND metadata->>$3 = $4
		  AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
		userID, kind, field, value).Scan(&total)
	if err != nil {
		return 0, fmt.Errorf("awarded today: %w", err)
	}
	return total, nil
}

// Querier runs statements inside an open transaction: a pgx.Tx, or a
// connection on which the caller began one.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// AwardQuery is one award as a single statement: the ledger row, the totals
// and the live event (with its NOTIFY) in one round trip. Callers that batch
// statements (the check-in) queue SQL with Args and read the row with Scan.
type AwardQuery struct {
	SQL   string
	Args  []any
	entry Entry

	totals        string // the statement that moves user_total_points
	failOnUsedKey bool
	eventID       int64 // reserved balance event id; 0: announced inside
}

// EntriesTx counts userID's entries of kind whose metadata field holds
// value (e.g. the posts credited on one day).
func EntriesTx(ctx context.Context, tx Querier, userID string, kind Kind, field, value string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM points_ledger WHERE user_id = $1 AND kind = $2 AND metadata->>$3 = $4`,
		userID, kind, field, value).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count entries: %w", err)
	}
	return n, nil
}

// SumSQL is a scalar subquery, for other packages' statements: the sum of
// the ledger entries of kind credited to the member in userExpr (a SQL
// expression). The ledger is this package's: readers go through it.
func SumSQL(userExpr string, kind Kind) string {
	if !kind.Valid() {
		panic("points.SumSQL: unknown kind " + string(kind))
	}
	return `(SELECT coalesce(sum(amount), 0) FROM points_ledger WHERE user_id = ` + userExpr + ` AND kind = '` + string(kind) + `')`
}

// NewAward validates an award and builds its statement.
func NewAward(userID string, amount int, kind Kind, idempotencyKey string, metadata map[string]any) (AwardQuery, error) {
	if !kind.Valid() {
		return AwardQuery{}, core.Invalid("Tipo de pontuação inválido.", map[string]string{"kind": "Tipo desconhecido."})
	}
	if amount == 0 || kind.debit() != (amount < 0) {
		return AwardQuery{}, core.Invalid("Quantidade de VetCoins inválida.", map[string]string{"amount": "Valor inválido para este tipo."})
	}
	if idempotencyKey == "" {
		return AwardQuery{}, core.Invalid("Chave de idempotência obrigatória.", map[string]string{"idempotency_key": "Obrigatória."})
	}
	if metadata == nil {
		metadata = map[string]any{}
	}
	meta, err := json.Marshal(metadata)
	if err != nil {
		return AwardQuery{}, fmt.Errorf("encode ledger metadata: %w", err)
	}
	col := kind.column()
	totals := `INSERT INTO user_total_points (user_id, ` + col + `) SELECT user_id, amount FROM l
		ON CONFLICT (user_id) DO UPDATE SET ` + col + ` = user_total_points.` + col + ` + EXCLUDED.` + col + `, updated_at = now()`
	if kind == KindRedemption {
		// PostgreSQL checks an upsert's insert tuple against the
		// non-negative constraint before detecting the conflict, so a
		// debit updates the row AwardTx made sure exists.
		totals = `UPDATE user_total_points u SET points_spent = u.points_spent - l.amount, updated_at = now()
		FROM l WHERE u.user_id = l.user_id`
	}
	if kind == KindRedemptionRefund {
		totals = `UPDATE user_total_points u SET points_spent = u.points_spent - l.amount, updated_at = now()
		FROM l WHERE u.user_id = l.user_id`
	}
	if kind == KindReferralReversal {
		totals = `UPDATE user_total_points u SET other_points = u.other_points + l.amount, updated_at = now()
		FROM l WHERE u.user_id = l.user_id`
	}
	q := AwardQuery{
		Args:   []any{userID, amount, kind, idempotencyKey, meta},
		entry:  Entry{UserID: userID, Amount: amount, Kind: kind, IdempotencyKey: idempotencyKey},
		totals: totals,
	}
	q.build()
	return q, nil
}

// build composes the award's statement from its options.
func (q *AwardQuery) build() {
	used := `
	ON CONFLICT ON CONSTRAINT points_ledger_idempotency_key DO NOTHING`
	if q.failOnUsedKey {
		used = ""
	}
	event := events.InsertCTE("e", `
	SELECT l.user_id, '`+EventBalance+`', `+balanceEventData+`
	FROM l, t`)
	announce := events.NotifyExpr("e")
	if q.eventID != 0 {
		event = events.InsertReservedCTE("e", `
	SELECT $6::bigint, l.user_id, '`+EventBalance+`', `+balanceEventData+`
	FROM l, t`)
		announce = "''"
	}
	q.SQL = `
WITH l AS (
	INSERT INTO points_ledger (user_id, amount, kind, idempotency_key, metadata)
	VALUES ($1, $2, $3, $4, $5)` + used + `
	RETURNING id, user_id, amount, kind, metadata, created_at
), t AS (
	` + q.totals + `
	RETURNING challenge_points, course_points, post_points, checkin_points, other_points, points_spent, total_points
), ` + event + `
SELECT l.id, l.metadata, l.created_at,
	` + announce + `::text
FROM l, t, e`
}

// balanceEventData is EventBalance's payload: the new totals and the entry.
const balanceEventData = `json_build_object(
		'balance', json_build_object('challenge_points', t.challenge_points, 'course_points', t.course_points,
			'post_points', t.post_points, 'checkin_points', t.checkin_points, 'other_points', t.other_points,
			'points_spent', t.points_spent, 'total_points', t.total_points),
		'entry', json_build_object('id', l.id, 'user_id', l.user_id, 'amount', l.amount, 'kind', l.kind,
			'metadata', l.metadata, 'created_at', l.created_at))`

// FailOnUsedKey returns q as a statement that fails with a unique violation
// of points_ledger_idempotency_key when the key was used, instead of
// answering no row. A caller that sends COMMIT in the same round trip as the
// award cannot read the answer before the commit, so a used key must abort
// the transaction by itself.
func (q AwardQuery) FailOnUsedKey() AwardQuery {
	q.failOnUsedKey = true
	q.build()
	return q
}

// WithReservedEvent returns q storing its balance event under eventID (from
// events.ReserveIDSQL) without announcing it: the caller sends
// events.AnnounceSQL after its COMMIT (see events.ReserveIDSQL for why).
func (q AwardQuery) WithReservedEvent(eventID int64) AwardQuery {
	if q.eventID == 0 {
		q.Args = append(q.Args[:5:5], eventID)
	} else {
		q.Args[5] = eventID
	}
	q.eventID = eventID
	q.build()
	return q
}

// Scan reads the statement's row: created is false when the idempotency key
// was already used (no row).
func (q AwardQuery) Scan(row pgx.Row) (Entry, bool, error) {
	e := q.entry
	err := row.Scan(&e.ID, &e.Metadata, &e.CreatedAt, new(string))
	switch {
	case postgres.IsNoRows(err):
		return Entry{}, false, nil
	case isCheckViolation(err, "user_total_points_not_negative"):
		return Entry{}, false, core.Errorf(core.ECONFLICT, "Saldo de VetCoins insuficiente.")
	case err != nil:
		return Entry{}, false, fmt.Errorf("award VetCoins: %w", err)
	}
	return e, true, nil
}

// BalanceEvent is the payload of EventBalance.
type BalanceEvent struct {
	Balance Balance `json:"balance"`
	Entry   Entry   `json:"entry"`
}

func entryByKey(ctx context.Context, tx Querier, key string) (Entry, error) {
	var e Entry
	err := tx.QueryRow(ctx, `SELECT id, user_id, amount, kind, idempotency_key, metadata, created_at
		FROM points_ledger WHERE idempotency_key = $1`, key).
		Scan(&e.ID, &e.UserID, &e.Amount, &e.Kind, &e.IdempotencyKey, &e.Metadata, &e.CreatedAt)
	if err != nil {
		return e, fmt.Errorf("read ledger entry by key: %w", err)
	}
	return e, nil
}

// Balance returns userID's totals; a user with no entries has zeros.
func (l *Ledger) Balance(ctx context.Context, userID string) (Balance, error) {
	var b Balance
	err := l.pool.QueryRow(ctx, `SELECT challenge_points, course_points, post_points, checkin_points, other_points, points_spent, total_points
		FROM user_total_points WHERE user_id = $1`, userID).
		Scan(&b.ChallengePoints, &b.CoursePoints, &b.PostPoints, &b.CheckinPoints, &b.OtherPoints, &b.PointsSpent, &b.TotalPoints)
	if postgres.IsNoRows(err) {
		return Balance{}, nil
	}
	if err != nil {
		return b, fmt.Errorf("read balance: %w", err)
	}
	return b, nil
}

// Page is one page of history, newest first.
type Page struct {
	Entries    []Entry `json:"entries"`
	NextCursor int64   `json:"next_cursor,omitempty"`
}

// History returns userID's entries older than cursor (0 = newest), newest first.
func (l *Ledger) History(ctx context.Context, userID string, cursor int64, limit int) (Page, error) {
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	if cursor <= 0 {
		cursor = 1<<63 - 1
	}
	rows, err := l.pool.Query(ctx, `SELECT id, user_id, amount, kind, idempotency_key, metadata, created_at
		FROM points_ledger WHERE user_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, userID, cursor, limit+1)
	if err != nil {
		return Page{}, fmt.Errorf("read history: %w", err)
	}
	entries, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Entry, error) {
		var e Entry
		err := row.Scan(&e.ID, &e.UserID, &e.Amount, &e.Kind, &e.IdempotencyKey, &e.Metadata, &e.CreatedAt)
		return e, err
	})
	if err != nil {
		return Page{}, fmt.Errorf("read history: %w", err)
	}
	p := Page{Entries: entries}
	if len(entries) > limit {
		p.Entries = entries[:limit]
		p.NextCursor = entries[limit-1].ID
	}
	return p, nil
}

func isCheckViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23514" && pgErr.ConstraintName == constraint
}
