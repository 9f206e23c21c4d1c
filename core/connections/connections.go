// Package connections is who is connected to whom: requests (pending),
// connections (accepted), blocks, suggestions and mutual connections.
//
// Every change to one pair of members runs in a transaction holding that
// pair's advisory lock, so requests, answers, removals and blocks on a pair
// happen one after another whatever the number of instances; the unique
// index on the unordered pair is the backstop. profiles.connections_count
// moves in the same transaction as the row it counts.
package connections

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/ratelimit"
)

// Pair states as one member sees them (GET /api/connections/status/{userId}).
const (
	StatusNone            = "none"
	StatusPendingSent     = "pending_sent"
	StatusPendingReceived = "pending_received"
	StatusConnected       = "connected"
	StatusBlocked         = "blocked"
)

// Result states of a write (POST /api/connections and the answers).
const (
	ResultPending   = "pending"
	ResultConnected = "connected"
	ResultNone      = "none"
)

// Limits of the lists.
const (
	// SuggestionsLimit is how many suggestions a member sees.
	SuggestionsLimit = 6
	// MutualListLimit is how many mutual connections are listed (count is exact).
	MutualListLimit = 12
	listLimit       = 1000
	maxQuery        = 100
)

// Request is a pending request as its receiver or sender sees it.
type Request struct {
	ID        string           `json:"id"`
	User      profiles.Summary `json:"user"`
	CreatedAt time.Time        `json:"created_at"`
}

// Connection is an accepted connection, User being the other member.
type Connection struct {
	ID          string           `json:"id"`
	User        profiles.Summary `json:"user"`
	ConnectedAt time.Time        `json:"connected_at"`
}

// Lists is GET /api/connections.
type Lists struct {
	Received    []Request    `json:"received"`
	Sent        []Request    `json:"sent"`
	Connections []Connection `json:"connections"`
}

// Result is the pair's state after a write.
type Result struct {
	ID     *string `json:"id"`
	Status string  `json:"status"`
}

// PairStatus is the pair's state as the caller sees it.
type PairStatus struct {
	Status string  `json:"status"`
	ID     *string `json:"id"`
}

// Suggestion is someone the member may want to connect with.
type Suggestion struct {
	User              profiles.Summary `json:"user"`
	MutualCount       int              `json:"mutual_count"`
	SharedSpecialties []string         `json:"shared_specialties"`
}

// Mutual is GET /api/connections/mutual/{userId}.
type Mutual struct {
	Mutual []profiles.Summary `json:"mutual"`
	Count  int                `json:"count"`
}

// Service reads and changes connections.
type Service struct {
	pool     *pgxpool.Pool
	profiles *profiles.Service
	notify   Notifier
	log      *slog.Logger
	limiter  *ratelimit.Limiter
	// Requests limits how many new connection requests one member sends:
	// enough to add every colleague met at an event, not to spam the
	// directory.
	Requests ratelimit.Rule
}

// DefaultRequests is the default Requests rule.
var DefaultRequests = ratelimit.Rule{Max: 30, Window: time.Hour}

// MsgTooManyRequests refuses a member past the Requests rule.
const MsgTooManyRequests = "Você enviou muitas solicitações de conexão em pouco tempo. Tente novamente mais tarde."

// Notifier is the part of core/notifications the service uses: it sends
// request and acceptance notices, and takes back or settles a request's
// notice once the request is gone or answered.
type Notifier interface {
	notifications.Sender
	Withdraw(ctx context.Context, idempotencyKey string) error
	Settle(ctx context.Context, idempotencyKey string, dropData ...string) error
}

// New returns the connections service; notify tells members about requests
// and acceptances.
func New(pool *pgxpool.Pool, profs *profiles.Service, notify Notifier, log *slog.Logger) *Service {
	return &Service{pool: pool, profiles: profs, notify: notify, log: log,
		limiter: ratelimit.New(pool, nil), Requests: DefaultRequests}
}

func errUserNotFound() error { return core.Errorf(core.ENOTFOUND, "Usuário não encontrado") }
func errRequestNotFound() error {
	return core.Errorf(core.ENOTFOUND, "Solicitação de conexão não encontrada")
}

// parseUser validates an id from a URL or a body; a malformed one is an
// unknown user.
func parseUser(id string) (string, error) {
	u, err := uuid.Parse(strings.TrimSpace(id))
	if err != nil {
		return "", errUserNotFound()
	}
	return u.String(), nil
}

func parseConnection(id string) (string, error) {
	u, err := uuid.Parse(strings.TrimSpace(id))
	if err != nil {
		return "", errRequestNotFound()
	}
	return u.String(), nil
}

// lockPair serialises every change to the pair {a, b} for the rest of tx.
func lockPair(ctx context.Context, tx pgx.Tx, a, b string) error {
	if b < a {
		a, b = b, a
	}
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('connections:' || $1 || ':' || $2, 0))`, a, b)
	if err != nil {
		return fmt.Errorf("lock pair: %w", err)
	}
	return nil
}

type row struct {
	id, requester, receiver, status string
}

// pairRow reads the pair's row, if any.
func pairRow(ctx context.Context, tx pgx.Tx, a, b string) (row, bool, error) {
	var r row
	err := tx.QueryRow(ctx, `SELECT id::text, requester_id::text, receiver_id::text, status FROM connections
		WHERE LEAST(requester_id, receiver_id) = LEAST($1::uuid, $2::uuid)
		  AND GREATEST(requester_id, receiver_id) = GREATEST($1::uuid, $2::uuid)`, a, b).
		Scan(&r.id, &r.requester, &r.receiver, &r.status)
	if postgres.IsNoRows(err) {
		return row{}, false, nil
	}
	if err != nil {
		return row{}, false, fmt.Errorf("read connection: %w", err)
	}
	return r, true, nil
}

func blocked(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, a, b string) (bool, error) {
	var yes bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM user_blocks
		WHERE (blocker_id = $1 AND blocked_id = $2) OR (blocker_id = $2 AND blocked_id = $1))`, a, b).Scan(&yes)
	if err != nil {
		return false, fmt.Errorf("read blocks: %w", err)
	}
	return yes, nil
}

func userExists(ctx context.Context, tx pgx.Tx, id string) (bool, error) {
	var yes bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)`, id).Scan(&yes); err != nil {
		return false, fmt.Errorf("read user: %w", err)
	}
	return yes, nil
}

// accept turns the pending row r into a connection and counts it for both.
func (s *Service) accept(ctx context.Context, tx pgx.Tx, r row) error {
	tag, err := tx.Exec(ctx, `UPDATE connections SET status = 'accepted', accepted_at = now() WHERE id = $1 AND status = 'pending'`, r.id)
	if err != nil {
		return fmt.Errorf("accept connection: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	return s.profiles.AdjustConnectionsCount(ctx, tx, +1, r.requester, r.receiver)
}

// Request asks to connect from → to. Asking someone who already asked you
// accepts their request; asking again while pending, or once connected,
// changes nothing (a retried click is harmless).
func (s *Service) Request(ctx context.Context, from, to string) (Result, error) {
	to, err := parseUser(to)
	if err != nil {
		return Result{}, err
	}
	if from == to {
		return Result{}, core.Errorf(core.EINVALID, "Você não pode se conectar consigo mesmo")
	}
	var r row
	var accepted bool
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		accepted = false
		if err := lockPair(ctx, tx, from, to); err != nil {
			return err
		}
		if ok, err := userExists(ctx, tx, to); err != nil {
			return err
		} else if !ok {
			return errUserNotFound()
		}
		if b, err := blocked(ctx, tx, from, to); err != nil {
			return err
		} else if b {
			return core.Errorf(core.EFORBIDDEN, "Não é possível se conectar com este usuário")
		}
		existing, found, err := pairRow(ctx, tx, from, to)
		if err != nil {
			return err
		}
		if found {
			r = existing
			if r.status == "pending" && r.receiver == from {
				accepted = true
				return s.accept(ctx, tx, r)
			}
			return nil
		}
		// Only a new request counts, in this transaction: repeating or
		// answering one is free, and a refusal rolls its hit back.
		if ok, err := s.limiter.AllowTx(ctx, tx, "connection-request:"+from, s.Requests); err != nil {
			return err
		} else if !ok {
			return core.Errorf(core.ERATELIMITED, "%s", MsgTooManyRequests)
		}
		if err := s.profiles.EnsureTx(ctx, tx, from, to); err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `INSERT INTO connections (requester_id, receiver_id) VALUES ($1, $2) RETURNING id::text`, from, to).Scan(&r.id)
		if err != nil {
			return fmt.Errorf("create connection request: %w", err)
		}
		r.requester, r.receiver, r.status = from, to, "pending"
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	switch {
	case accepted:
		s.settleRequest(ctx, r.id)
		s.notifyAccepted(ctx, r)
		return Result{ID: &r.id, Status: ResultConnected}, nil
	case r.status == "accepted":
		return Result{ID: &r.id, Status: ResultConnected}, nil
	default:
		// Also on a repeated request: a notice lost after the commit is sent
		// now, and its idempotency key keeps it single.
		s.notifyRequest(ctx, r)
		return Result{ID: &r.id, Status: ResultPending}, nil
	}
}

// answerable loads the request id for its receiver me, holding the pair's
// lock. Someone outside the pair gets "not found"; the requester gets 403.
func (s *Service) answerable(ctx context.Context, tx pgx.Tx, me, id string) (row, error) {
	var requester, receiver string
	err := tx.QueryRow(ctx, `SELECT requester_id::text, receiver_id::text FROM connections WHERE id = $1`, id).Scan(&requester, &receiver)
	if postgres.IsNoRows(err) {
		return row{}, errRequestNotFound()
	}
	if err != nil {
		return row{}, fmt.Errorf("read connection: %w", err)
	}
	if me != requester && me != receiver {
		return row{}, errRequestNotFound()
	}
	if err := lockPair(ctx, tx, requester, receiver); err != nil {
		return row{}, err
	}
	// Read again under the lock: it may have been answered meanwhile.
	r, found, err := pairRow(ctx, tx, requester, receiver)
	if err != nil {
		return row{}, err
	}
	if !found || r.id != id {
		return row{}, errRequestNotFound()
	}
	return r, nil
}

// Accept accepts the pending request id; only its receiver may. Accepting
// an accepted connection again changes nothing.
func (s *Service) Accept(ctx context.Context, me, id string) (Result, error) {
	id, err := parseConnection(id)
	if err != nil {
		return Result{}, err
	}
	var r row
	var accepted bool
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		accepted = false
		var err error
		if r, err = s.answerable(ctx, tx, me, id); err != nil {
			return err
		}
		if r.receiver != me {
			if r.status == "accepted" {
				return nil
			}
			return core.Errorf(core.EFORBIDDEN, "Apenas quem recebeu a solicitação pode aceitá-la")
		}
		if r.status == "accepted" {
			return nil
		}
		accepted = true
		return s.accept(ctx, tx, r)
	})
	if err != nil {
		return Result{}, err
	}
	if accepted {
		s.settleRequest(ctx, r.id)
		s.notifyAccepted(ctx, r)
	}
	return Result{ID: &r.id, Status: ResultConnected}, nil
}

// Reject refuses the pending request id; only its receiver may.
func (s *Service) Reject(ctx context.Context, me, id string) (Result, error) {
	id, err := parseConnection(id)
	if err != nil {
		return Result{}, err
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		r, err := s.answerable(ctx, tx, me, id)
		if err != nil {
			return err
		}
		if r.receiver != me {
			return core.Errorf(core.EFORBIDDEN, "Apenas quem recebeu a solicitação pode rejeitá-la")
		}
		if r.status != "pending" {
			return core.Errorf(core.ECONFLICT, "Esta solicitação já foi aceita")
		}
		_, err = tx.Exec(ctx, `DELETE FROM connections WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return Result{}, err
	}
	s.withdrawRequest(ctx, id)
	return Result{Status: ResultNone}, nil
}

// Delete cancels the caller's own pending request or removes a connection
// (either party). A request received is answered with Reject instead.
func (s *Service) Delete(ctx context.Context, me, id string) (Result, error) {
	id, err := parseConnection(id)
	if err != nil {
		return Result{}, err
	}
	var pending bool
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		r, err := s.answerable(ctx, tx, me, id)
		if err != nil {
			return err
		}
		if r.status == "pending" && r.requester != me {
			return core.Errorf(core.EFORBIDDEN, "Use Recusar para responder a uma solicitação recebida")
		}
		pending = r.status == "pending"
		return s.deleteRow(ctx, tx, r)
	})
	if err != nil {
		return Result{}, err
	}
	if pending {
		s.withdrawRequest(ctx, id)
	}
	return Result{Status: ResultNone}, nil
}

// deleteRow deletes r and, for a connection, uncounts it from both.
func (s *Service) deleteRow(ctx context.Context, tx pgx.Tx, r row) error {
	var status string
	err := tx.QueryRow(ctx, `DELETE FROM connections WHERE id = $1 RETURNING status`, r.id).Scan(&status)
	if postgres.IsNoRows(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete connection: %w", err)
	}
	if status == "accepted" {
		return s.profiles.AdjustConnectionsCount(ctx, tx, -1, r.requester, r.receiver)
	}
	return nil
}

// Block stops every request and connection between me and other, now and
// until Unblock. Blocking twice is harmless.
func (s *Service) Block(ctx context.Context, me, other string) error {
	other, err := parseUser(other)
	if err != nil {
		return err
	}
	if me == other {
		return core.Errorf(core.EINVALID, "Você não pode bloquear a si mesmo")
	}
	var pendingID string
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		pendingID = ""
		if err := lockPair(ctx, tx, me, other); err != nil {
			return err
		}
		if ok, err := userExists(ctx, tx, other); err != nil {
			return err
		} else if !ok {
			return errUserNotFound()
		}
		if _, err := tx.Exec(ctx, `INSERT INTO user_blocks (blocker_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, me, other); err != nil {
			return fmt.Errorf("block user: %w", err)
		}
		r, found, err := pairRow(ctx, tx, me, other)
		if err != nil || !found {
			return err
		}
		if r.status == "pending" {
			pendingID = r.id
		}
		return s.deleteRow(ctx, tx, r)
	})
	if err == nil && pendingID != "" {
		s.withdrawRequest(ctx, pendingID)
	}
	return err
}

// BlockedByMe lists the people me has blocked, most recent first (the ones
// who blocked me are never revealed).
func (s *Service) BlockedByMe(ctx context.Context, me string) ([]profiles.Summary, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+profiles.SummaryColumns+`
		FROM user_blocks b JOIN profiles p ON p.user_id = b.blocked_id
		WHERE b.blocker_id = $1 ORDER BY b.created_at DESC, b.blocked_id LIMIT $2`, me, listLimit)
	if err != nil {
		return nil, fmt.Errorf("list blocked users: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (profiles.Summary, error) {
		var sum profiles.Summary
		err := row.Scan(sum.SummaryDest()...)
		sum.Normalize()
		return sum, err
	})
	if err != nil {
		return nil, fmt.Errorf("list blocked users: %w", err)
	}
	if list == nil {
		list = []profiles.Summary{}
	}
	return list, nil
}

// Unblock lifts me's block on other (other's own block on me stays).
func (s *Service) Unblock(ctx context.Context, me, other string) error {
	other, err := parseUser(other)
	if err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM user_blocks WHERE blocker_id = $1 AND blocked_id = $2`, me, other); err != nil {
		return fmt.Errorf("unblock user: %w", err)
	}
	return nil
}

// Blocked reports whether either member blocked the other (for features
// that hide a blocked member's posts and comments).
func (s *Service) Blocked(ctx context.Context, a, b string) (bool, error) {
	return blocked(ctx, s.pool, a, b)
}

// Status is the pair's state as me sees it.
func (s *Service) Status(ctx context.Context, me, other string) (PairStatus, error) {
	other, err := parseUser(other)
	if err != nil || me == other {
		return PairStatus{Status: StatusNone}, nil
	}
	var id, requester, status *string
	var isBlocked bool
	err = s.pool.QueryRow(ctx, `
		SELECT c.id::text, c.requester_id::text, c.status,
		       EXISTS (SELECT 1 FROM user_blocks WHERE (blocker_id = $1 AND blocked_id = $2) OR (blocker_id = $2 AND blocked_id = $1))
		FROM (SELECT 1) AS one
		LEFT JOIN connections c
		  ON LEAST(c.requester_id, c.receiver_id) = LEAST($1::uuid, $2::uuid)
		 AND GREATEST(c.requester_id, c.receiver_id) = GREATEST($1::uuid, $2::uuid)`, me, other).
		Scan(&id, &requester, &status, &isBlocked)
	if err != nil {
		return PairStatus{}, fmt.Errorf("connection status: %w", err)
	}
	switch {
	case isBlocked:
		return PairStatus{Status: StatusBlocked}, nil
	case id == nil:
		return PairStatus{Status: StatusNone}, nil
	case *status == "accepted":
		return PairStatus{Status: StatusConnected, ID: id}, nil
	case *requester == me:
		return PairStatus{Status: StatusPendingSent, ID: id}, nil
	default:
		return PairStatus{Status: StatusPendingReceived, ID: id}, nil
	}
}

// likePattern turns a search into an accent- and case-insensitive LIKE
// pattern (matched against unaccent(lower(name))).
func likePattern(q string) string {
	q = strings.TrimSpace(q)
	if r := []rune(q); len(r) > maxQuery {
		q = string(r[:maxQuery])
	}
	q = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.Join(strings.Fields(q), " "))
	return "%" + q + "%"
}

// List returns me's received and sent requests, newest first, and me's
// connections, newest first, filtered by name when q is not blank.
func (s *Service) List(ctx context.Context, me, q string) (Lists, error) {
	out := Lists{Received: []Request{}, Sent: []Request{}, Connections: []Connection{}}
	requests := func(sql string) ([]Request, error) {
		rows, err := s.pool.Query(ctx, sql, me, listLimit)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Request, error) {
			var r Request
			err := row.Scan(append(r.User.SummaryDest(), &r.ID, &r.CreatedAt)...)
			r.User.Normalize()
			return r, err
		})
	}
	var err error
	if out.Received, err = requests(`SELECT ` + profiles.SummaryColumns + `, c.id::text, c.created_at
		FROM connections c JOIN profiles p ON p.user_id = c.requester_id
		WHERE c.receiver_id = $1 AND c.status = 'pending' ORDER BY c.created_at DESC, c.id LIMIT $2`); err != nil {
		return Lists{}, fmt.Errorf("list received requests: %w", err)
	}
	if out.Sent, err = requests(`SELECT ` + profiles.SummaryColumns + `, c.id::text, c.created_at
		FROM connections c JOIN profiles p ON p.user_id = c.receiver_id
		WHERE c.requester_id = $1 AND c.status = 'pending' ORDER BY c.created_at DESC, c.id LIMIT $2`); err != nil {
		return Lists{}, fmt.Errorf("list sent requests: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+profiles.SummaryColumns+`, c.id::text, c.accepted_at
		FROM connections c
		JOIN profiles p ON p.user_id = CASE WHEN c.requester_id = $1 THEN c.receiver_id ELSE c.requester_id END
		WHERE (c.requester_id = $1 OR c.receiver_id = $1) AND c.status = 'accepted'
		  AND ($3 = '%%' OR unaccent(lower(p.first_name || ' ' || p.last_name)) LIKE unaccent(lower($3)))
		ORDER BY c.accepted_at DESC, c.id LIMIT $2`, me, listLimit, likePattern(q))
	if err != nil {
		return Lists{}, fmt.Errorf("list connections: %w", err)
	}
	out.Connections, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (Connection, error) {
		var c Connection
		err := row.Scan(append(c.User.SummaryDest(), &c.ID, &c.ConnectedAt)...)
		c.User.Normalize()
		return c, err
	})
	if err != nil {
		return Lists{}, fmt.Errorf("list connections: %w", err)
	}
	return out, nil
}

// friendsOf is the SQL for the ids connected to the user in $1.
const friendsOf = `SELECT CASE WHEN requester_id = $1 THEN receiver_id ELSE requester_id END AS friend
	FROM connections WHERE status = 'accepted' AND (requester_id = $1 OR receiver_id = $1)`

// Suggestions ranks people me may know: never me, anyone with a request or
// connection with me, or anyone blocked either way. Score is the number of
// shared specialties plus the number of mutual connections; ties go to more
// mutual connections, then to the newest members.
func (s *Service) Suggestions(ctx context.Context, me string) ([]Suggestion, error) {
	rows, err := s.pool.Query(ctx, `
		WITH mine AS (`+friendsOf+`),
		my_specialties AS (SELECT COALESCE((SELECT specialties FROM profiles WHERE user_id = $1), '{}') AS list),
		mutual AS (
			SELECT CASE WHEN c.requester_id = m.friend THEN c.receiver_id ELSE c.requester_id END AS candidate, count(*) AS n
			FROM mine m JOIN connections c
			  ON c.status = 'accepted' AND (c.requester_id = m.friend OR c.receiver_id = m.friend)
			GROUP BY 1),
		scored AS (
			SELECT p.*, COALESCE(mu.n, 0)::int AS mutual_count,
			       ARRAY(SELECT unnest(p.specialties) INTERSECT SELECT unnest(ms.list) ORDER BY 1) AS shared
			FROM profiles p
			CROSS JOIN my_specialties ms
			LEFT JOIN mutual mu ON mu.candidate = p.user_id
			WHERE p.user_id <> $1
			  AND NOT EXISTS (SELECT 1 FROM connections c
				WHERE (c.requester_id = $1 AND c.receiver_id = p.user_id) OR (c.requester_id = p.user_id AND c.receiver_id = $1))
			  AND NOT EXISTS (SELECT 1 FROM user_blocks b
				WHERE (b.blocker_id = $1 AND b.blocked_id = p.user_id) OR (b.blocker_id = p.user_id AND b.blocked_id = $1)))
		SELECT `+profiles.SummaryColumns+`, p.mutual_count, p.shared
		FROM scored p
		ORDER BY cardinality(p.shared) + p.mutual_count DESC, p.mutual_count DESC, p.created_at DESC, p.user_id
		LIMIT $2`, me, SuggestionsLimit)
	if err != nil {
		return nil, fmt.Errorf("suggestions: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Suggestion, error) {
		var sg Suggestion
		err := row.Scan(append(sg.User.SummaryDest(), &sg.MutualCount, &sg.SharedSpecialties)...)
		sg.User.Normalize()
		if sg.SharedSpecialties == nil {
			sg.SharedSpecialties = []string{}
		}
		return sg, err
	})
	if err != nil {
		return nil, fmt.Errorf("suggestions: %w", err)
	}
	return list, nil
}

// MutualWith lists members connected to both me and other.
func (s *Service) MutualWith(ctx context.Context, me, other string) (Mutual, error) {
	other, err := parseUser(other)
	if err != nil {
		return Mutual{}, err
	}
	out := Mutual{Mutual: []profiles.Summary{}}
	if me == other {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `
		WITH a AS (`+friendsOf+`),
		b AS (`+strings.ReplaceAll(friendsOf, "$1", "$2")+`),
		both_ AS (SELECT friend FROM a INTERSECT SELECT friend FROM b)
		SELECT `+profiles.SummaryColumns+`, count(*) OVER ()
		FROM both_ JOIN profiles p ON p.user_id = both_.friend
		ORDER BY lower(p.first_name), lower(p.last_name), p.user_id
		LIMIT $3`, me, other, MutualListLimit)
	if err != nil {
		return Mutual{}, fmt.Errorf("mutual connections: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var sum profiles.Summary
		if err := rows.Scan(append(sum.SummaryDest(), &out.Count)...); err != nil {
			return Mutual{}, fmt.Errorf("mutual connections: %w", err)
		}
		sum.Normalize()
		out.Mutual = append(out.Mutual, sum)
	}
	if err := rows.Err(); err != nil {
		return Mutual{}, fmt.Errorf("mutual connections: %w", err)
	}
	return out, nil
}

// name is how a notice names a member.
func (s *Service) name(ctx context.Context, id string) string { return s.profiles.DisplayName(ctx, id) }

// notifyRequest tells the receiver of request r. It runs after the commit:
// a failure is logged, and the next identical request sends it again.
func (s *Service) notifyRequest(ctx context.Context, r row) {
	if s.notify == nil {
		return
	}
	_, err := s.notify.Send(ctx, notifications.Notice{
		UserID:         r.receiver,
		Type:           "connection",
		Title:          "Nova solicitação de conexão",
		Message:        s.name(ctx, r.requester) + " quer se conectar com você",
		RelatedUserID:  r.requester,
		Link:           "/connections",
		Data:           map[string]string{"connection_id": r.id},
		IdempotencyKey: requestNoticeKey(r.id),
	})
	if err != nil {
		s.log.WarnContext(ctx, "notify connection request", "connection_id", r.id, "err", err)
	}
}

// requestNoticeKey is the idempotency key of the notice a request sends.
func requestNoticeKey(connectionID string) string { return "connection-request:" + connectionID }

// withdrawRequest takes back the notice of a request that was cancelled,
// refused or ended by a block. It runs after the commit: a failure is logged
// and leaves a notice whose buttons answer "not found".
func (s *Service) withdrawRequest(ctx context.Context, connectionID string) {
	if s.notify == nil {
		return
	}
	if err := s.notify.Withdraw(ctx, requestNoticeKey(connectionID)); err != nil {
		s.log.WarnContext(ctx, "withdraw connection request notice", "connection_id", connectionID, "err", err)
	}
}

// settleRequest keeps an accepted request's notice, read and without its
// Aceitar / Recusar.
func (s *Service) settleRequest(ctx context.Context, connectionID string) {
	if s.notify == nil {
		return
	}
	if err := s.notify.Settle(ctx, requestNoticeKey(connectionID), "connection_id"); err != nil {
		s.log.WarnContext(ctx, "settle connection request notice", "connection_id", connectionID, "err", err)
	}
}

// notifyAccepted tells the requester that r was accepted, once.
func (s *Service) notifyAccepted(ctx context.Context, r row) {
	if s.notify == nil {
		return
	}
	_, err := s.notify.Send(ctx, notifications.Notice{
		UserID:        r.requester,
		Type:          "connection",
		Title:         "Conexão aceita",
		Message:       s.name(ctx, r.receiver) + " aceitou sua solicitação de conexão",
		RelatedUserID: r.receiver,
		Link:          "/profile/" + r.receiver,
		// No connection_id: the dropdown offers Aceitar / Recusar only on
		// notices that carry a request to answer.
		IdempotencyKey: "connection-accepted:" + r.id,
	})
	if err != nil {
		s.log.WarnContext(ctx, "notify connection accepted", "connection_id", r.id, "err", err)
	}
}
