package editorial

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

// Audit is the append-only log of writes to content items. It is the
// content store's Recorder, so every write's event commits with the write.
type Audit struct {
	pool *pgxpool.Pool
}

// NewAudit returns the audit log on pool.
func NewAudit(pool *pgxpool.Pool) *Audit { return &Audit{pool: pool} }

// Event is one audit log entry.
type Event struct {
	ID       int64           `json:"id"`
	ItemID   string          `json:"item_id"`
	ItemType string          `json:"item_type"`
	Revision int             `json:"revision"`
	Action   string          `json:"action"`
	Channel  content.Channel `json:"channel"`
	ActorID  string          `json:"actor_id,omitempty"`
	// ActorName is who acted, by name (their e-mail when they have none),
	// whether on the team or a member acting on their own content.
	ActorName string         `json:"actor_name,omitempty"`
	IP        string         `json:"ip,omitempty"`
	From      content.Status `json:"from,omitempty"`
	To        content.Status `json:"to"`
	Reason    string         `json:"reason,omitempty"`
	At        time.Time      `json:"created_at"`
}

// RecordTx appends e inside the write's transaction.
func (a *Audit) RecordTx(ctx context.Context, tx pgx.Tx, e content.Event) error {
	var ip any
	if parsed := net.ParseIP(e.IP); parsed != nil {
		ip = parsed.String()
	}
	_, err := tx.Exec(ctx, `INSERT INTO editorial_events
			(item_id, item_type, revision, action, channel, actor_id, ip, from_status, to_status, reason, created_at)
		VALUES ($1, $2, $3, $4, $5, nullif($6, '')::uuid, $7::inet, nullif($8, ''), $9, $10, $11)`,
		e.ItemID, e.Type, e.Revision, e.Action, e.Channel, e.ActorID, ip, string(e.From), e.To, e.Reason, e.At)
	if err != nil {
		return fmt.Errorf("append audit event: %w", err)
	}
	return nil
}

// AuditQuery filters the global audit list; zero fields do not filter.
type AuditQuery struct {
	ItemID   string
	ItemType string
	ActorID  string
	Action   string
	Since    time.Time
	Until    time.Time
	Limit    int
	Offset   int
	// Oldest first instead of the default newest first.
	Ascending bool
	// VisibleTo, when set, keeps the events of the items this editor wrote
	// or had shared with them (the rule of the content lists).
	VisibleTo string
}

// List returns events matching q, newest first, with the total number of
// matches (for Content-Range).
func (a *Audit) List(ctx context.Context, q AuditQuery) ([]Event, int64, error) {
	var where []string
	var args []any
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	for _, id := range []struct{ col, v string }{{"item_id", q.ItemID}, {"actor_id", q.ActorID}} {
		if id.v == "" {
			continue
		}
		if uuid.Validate(id.v) != nil {
			return nil, 0, core.Invalid("Filtro inválido.", map[string]string{id.col: "Identificador inválido."})
		}
		where = append(where, id.col+" = "+arg(id.v)+"::uuid")
	}
	if q.VisibleTo != "" {
		if uuid.Validate(q.VisibleTo) != nil {
			return []Event{}, 0, nil
		}
		where = append(where, "EXISTS (SELECT 1 FROM content_items i WHERE i.id = editorial_events.item_id AND "+
			content.EditorSeesItemSQL(arg(q.VisibleTo))+")")
	}
	if q.ItemType != "" {
		where = append(where, "item_type = "+arg(q.ItemType))
	}
	if q.Action != "" {
		where = append(where, "action = "+arg(q.Action))
	}
	if !q.Since.IsZero() {
		where = append(where, "created_at >= "+arg(q.Since))
	}
	if !q.Until.IsZero() {
		where = append(where, "created_at < "+arg(q.Until))
	}
	cond := ""
	if len(where) > 0 {
		cond = "WHERE " + strings.Join(where, " AND ")
	}
	limit := q.Limit
	if limit <= 0 || limit > content.MaxPageSize {
		limit = content.MaxPageSize
	}
	// Events are appended in time order, so the id orders them as created_at does.
	order := "DESC"
	if q.Ascending {
		order = "ASC"
	}
	rows, err := a.pool.Query(ctx, `SELECT id, item_id::text, item_type, revision, action, channel, coalesce(actor_id::text, ''),
			coalesce(host(ip), ''), coalesce(from_status, ''), to_status, reason, created_at, count(*) OVER (),
			coalesce((SELECT `+personName+` FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = editorial_events.actor_id), '')
		FROM editorial_events `+cond+` ORDER BY id `+order+` LIMIT `+strconv.Itoa(limit)+` OFFSET `+strconv.Itoa(max(q.Offset, 0)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list audit events: %w", err)
	}
	defer rows.Close()
	events := []Event{}
	var total int64
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.ID, &e.ItemID, &e.ItemType, &e.Revision, &e.Action, &e.Channel, &e.ActorID, &e.IP,
			&e.From, &e.To, &e.Reason, &e.At, &total, &e.ActorName); err != nil {
			return nil, 0, fmt.Errorf("scan audit event: %w", err)
		}
		events = append(events, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list audit events: %w", err)
	}
	if len(events) == 0 && q.Offset > 0 {
		if err := a.pool.QueryRow(ctx, `SELECT count(*) FROM editorial_events `+cond, args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count audit events: %w", err)
		}
	}
	return events, total, nil
}

// Timeline returns item id's events, newest first.
func (a *Audit) Timeline(ctx context.Context, itemID string, limit, offset int) ([]Event, int64, error) {
	if uuid.Validate(itemID) != nil {
		return nil, 0, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
	}
	return a.List(ctx, AuditQuery{ItemID: itemID, Limit: limit, Offset: offset})
}
