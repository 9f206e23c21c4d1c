package moderation

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/profiles"
)

// Person is a member as the queue shows them (null when the account is gone).
type Person = profiles.Author

// ReportEntry is one report of a target.
type ReportEntry struct {
	Reporter  *Person   `json:"reporter"`
	Category  string    `json:"category"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"created_at"`
}

// LogEntry is one line of a target's moderation log.
type LogEntry struct {
	Action    Action    `json:"action"`
	FromState State     `json:"from_state"`
	ToState   State     `json:"to_state"`
	Actor     *Person   `json:"actor"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"created_at"`
}

// History is what the author has published and what moderation did to it.
type History struct {
	Posts    int64 `json:"posts"`
	Comments int64 `json:"comments"`
	Hidden   int64 `json:"hidden"`
	Removed  int64 `json:"removed"`
}

// Row is one target in the backoffice's moderation queue.
type Row struct {
	// ID is "<target_type>:<target_id>", the id react-admin keys rows by.
	ID            string        `json:"id"`
	TargetType    string        `json:"target_type"`
	TargetID      string        `json:"target_id"`
	State         State         `json:"state"`
	Excerpt       string        `json:"excerpt"`
	ItemID        *string       `json:"item_id"`
	Link          string        `json:"link"`
	Author        *Person       `json:"author"`
	Reports       []ReportEntry `json:"reports"`
	ReportCount   int           `json:"report_count"`
	OpenReports   int           `json:"open_reports"`
	AuthorHistory History       `json:"author_history"`
	Log           []LogEntry    `json:"log"`
	CreatedAt     time.Time     `json:"created_at"`
	UpdatedAt     time.Time     `json:"updated_at"`

	authorID string
}

// QueueQuery asks for one page of the queue.
type QueueQuery struct {
	State      State  // "" for every state
	TargetType string // "" for both
	SortField  string // updated_at (default), created_at, report_count
	Ascending  bool
	Offset     int
	Limit      int
}

// QueueSortFields are the fields the queue sorts by.
var QueueSortFields = []string{"updated_at", "created_at", "report_count"}

// personColumns select a Person from users uu and profiles pp joined with
// personJoin; an account without a profile row yet shows as 'Usuário'.
const personColumns = `uu.id::text, coalesce(pp.first_name, 'Usuário'), coalesce(pp.last_name, ''), nullif(pp.avatar_url, ''),
	nullif(pp.title, ''), coalesce(pp.verified, false)`

func personJoin(userColumn string) string {
	return ` LEFT JOIN users uu ON uu.id = ` + userColumn + ` LEFT JOIN profiles pp ON pp.user_id = uu.id `
}

func scanPerson(id *string, p *Person) *Person {
	if id == nil {
		return nil
	}
	p.ID = *id
	return p
}

const rowColumns = `mt.target_type, mt.target_id::text, mt.state, mt.excerpt, mt.item_id::text, coalesce(mt.author_id::text, ''),
	mt.report_count, mt.open_reports, mt.created_at, mt.updated_at, ` + personColumns

func scanRow(row interface{ Scan(...any) error }) (Row, error) {
	var r Row
	var pid *string
	var p Person
	err := row.Scan(&r.TargetType, &r.TargetID, &r.State, &r.Excerpt, &r.ItemID, &r.authorID, &r.ReportCount, &r.OpenReports,
		&r.CreatedAt, &r.UpdatedAt, &pid, &p.FirstName, &p.LastName, &p.AvatarURL, &p.Title, &p.Verified)
	if err != nil {
		return Row{}, err
	}
	r.ID = r.TargetType + ":" + r.TargetID
	r.Author = scanPerson(pid, &p)
	r.CreatedAt, r.UpdatedAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC()
	if r.ItemID != nil && r.State != StateRemoved {
		r.Link = "/community?post=" + *r.ItemID
	}
	r.Reports, r.Log = []ReportEntry{}, []LogEntry{}
	return r, nil
}

// Queue returns one page of targets and how many match.
func (s *Service) Queue(ctx context.Context, q QueueQuery) ([]Row, int64, error) {
	var where []string
	args := []any{}
	if q.State != "" {
		args = append(args, q.State)
		where = append(where, fmt.Sprintf("mt.state = $%d", len(args)))
	}
	if q.TargetType != "" {
		args = append(args, q.TargetType)
		where = append(where, fmt.Sprintf("mt.target_type = $%d", len(args)))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM moderation_targets mt`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("moderation queue: %w", err)
	}
	sort := "mt.updated_at"
	switch q.SortField {
	case "created_at":
		sort = "mt.created_at"
	case "report_count":
		sort = "mt.report_count"
	}
	dir := " DESC"
	if q.Ascending {
		dir = " ASC"
	}
	if q.Limit <= 0 {
		q.Limit = 25
	}
	args = append(args, q.Limit, q.Offset)
	rows, err := s.pool.Query(ctx, `SELECT `+rowColumns+` FROM moderation_targets mt
		`+personJoin("mt.author_id")+cond+`
		ORDER BY `+sort+dir+`, mt.target_type, mt.target_id
		LIMIT $`+fmt.Sprint(len(args)-1)+` OFFSET $`+fmt.Sprint(len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("moderation queue: %w", err)
	}
	var list []Row
	for rows.Next() {
		r, err := scanRow(rows)
		if err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("moderation queue: scan: %w", err)
		}
		list = append(list, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("moderation queue: %w", err)
	}
	if list == nil {
		list = []Row{}
	}
	if err := s.details(ctx, list); err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

// Row returns one target's row (404 when moderation never met it).
func (s *Service) Row(ctx context.Context, targetType, targetID string) (Row, error) {
	if err := checkTarget(targetType, targetID); err != nil {
		return Row{}, err
	}
	r, err := scanRow(s.pool.QueryRow(ctx, `SELECT `+rowColumns+` FROM moderation_targets mt
		`+personJoin("mt.author_id")+`
		WHERE mt.target_type = $1 AND mt.target_id = $2`, targetType, targetID))
	if postgres.IsNoRows(err) {
		return Row{}, targetNotFound()
	}
	if err != nil {
		return Row{}, fmt.Errorf("moderation row: %w", err)
	}
	list := []Row{r}
	if err := s.details(ctx, list); err != nil {
		return Row{}, err
	}
	return list[0], nil
}

// details fills each row's reports, log and author history (three queries
// for the whole page).
func (s *Service) details(ctx context.Context, list []Row) error {
	if len(list) == 0 {
		return nil
	}
	types, ids := make([]string, len(list)), make([]string, len(list))
	at := map[string]int{}
	var authors []string
	for i, r := range list {
		types[i], ids[i] = r.TargetType, r.TargetID
		at[r.ID] = i
		if r.authorID != "" {
			authors = append(authors, r.authorID)
		}
	}
	rows, err := s.pool.Query(ctx, `SELECT mr.target_type || ':' || mr.target_id, coalesce(mr.category, ''), mr.reason, mr.created_at, `+personColumns+`
		FROM moderation_reports mr
		JOIN unnest($1::text[], $2::uuid[]) AS t(tt, ti) ON mr.target_type = t.tt AND mr.target_id = t.ti
		`+personJoin("mr.reporter_id")+`
		ORDER BY mr.created_at, mr.id`, types, ids)
	if err != nil {
		return fmt.Errorf("moderation reports: %w", err)
	}
	for rows.Next() {
		var key string
		var e ReportEntry
		var pid *string
		var p Person
		if err := rows.Scan(&key, &e.Category, &e.Reason, &e.CreatedAt, &pid, &p.FirstName, &p.LastName, &p.AvatarURL, &p.Title, &p.Verified); err != nil {
			rows.Close()
			return fmt.Errorf("moderation reports: %w", err)
		}
		e.Reporter, e.CreatedAt = scanPerson(pid, &p), e.CreatedAt.UTC()
		list[at[key]].Reports = append(list[at[key]].Reports, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("moderation reports: %w", err)
	}

	rows, err = s.pool.Query(ctx, `SELECT ma.target_type || ':' || ma.target_id, ma.action, ma.from_state, ma.to_state, ma.reason,
			ma.created_at, `+personColumns+`
		FROM moderation_actions ma
		JOIN unnest($1::text[], $2::uuid[]) AS t(tt, ti) ON ma.target_type = t.tt AND ma.target_id = t.ti
		`+personJoin("ma.actor_id")+`
		ORDER BY ma.id`, types, ids)
	if err != nil {
		return fmt.Errorf("moderation log: %w", err)
	}
	for rows.Next() {
		var key string
		var e LogEntry
		var pid *string
		var p Person
		if err := rows.Scan(&key, &e.Action, &e.FromState, &e.ToState, &e.Reason, &e.CreatedAt,
			&pid, &p.FirstName, &p.LastName, &p.AvatarURL, &p.Title, &p.Verified); err != nil {
			rows.Close()
			return fmt.Errorf("moderation log: %w", err)
		}
		e.Actor, e.CreatedAt = scanPerson(pid, &p), e.CreatedAt.UTC()
		list[at[key]].Log = append(list[at[key]].Log, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("moderation log: %w", err)
	}

	if len(authors) == 0 {
		return nil
	}
	// Posts are content items of the community type; comments live in
	// engagement. Both are read here only to count them.
	rows, err = s.pool.Query(ctx, `SELECT a.id::text,
			(SELECT count(*) FROM content_items ci WHERE ci.author_id = a.id AND ci.type = 'posts'),
			(SELECT count(*) FROM engagement_comments ec WHERE ec.user_id = a.id),
			(SELECT count(*) FROM moderation_targets m WHERE m.author_id = a.id AND m.state = 'oculto'),
			(SELECT count(*) FROM moderation_targets m WHERE m.author_id = a.id AND m.state = 'removido')
		FROM (SELECT DISTINCT unnest($1::uuid[]) AS id) a`, authors)
	if err != nil {
		return fmt.Errorf("moderation author history: %w", err)
	}
	defer rows.Close()
	hist := map[string]History{}
	for rows.Next() {
		var id string
		var h History
		if err := rows.Scan(&id, &h.Posts, &h.Comments, &h.Hidden, &h.Removed); err != nil {
			return fmt.Errorf("moderation author history: %w", err)
		}
		hist[id] = h
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("moderation author history: %w", err)
	}
	for i := range list {
		list[i].AuthorHistory = hist[list[i].authorID]
	}
	return nil
}
