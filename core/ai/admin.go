package ai

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// DayUsage is one day (São Paulo) of use across members.
type DayUsage struct {
	Day      string  `json:"day"`
	Messages int     `json:"messages"`
	Tokens   int64   `json:"tokens"`
	CostUSD  float64 `json:"cost_usd"`
	Members  int     `json:"members"`
}

// MemberUsage is one member's use over the period.
type MemberUsage struct {
	UserID   string  `json:"user_id"`
	Email    string  `json:"email"`
	Name     string  `json:"name"`
	Messages int     `json:"messages"`
	Tokens   int64   `json:"tokens"`
	CostUSD  float64 `json:"cost_usd"`
}

// CitedSource is a published item and how many answers cited it.
type CitedSource struct {
	ItemID string `json:"item_id"`
	Title  string `json:"title"`
	URL    string `json:"url"`
	Cites  int    `json:"cites"`
}

// ReportedAnswer is an answer a member reported, with its conversation.
type ReportedAnswer struct {
	MessageID      string    `json:"message_id"`
	ConversationID string    `json:"conversation_id"`
	Conversation   string    `json:"conversation"`
	Email          string    `json:"email"`
	Reason         string    `json:"reason"`
	Question       string    `json:"question"`
	Answer         string    `json:"answer"`
	ReportedAt     time.Time `json:"reported_at"`
}

// Overview is the backoffice's view of VetClube IA over the last days.
type Overview struct {
	Days     int              `json:"days"`
	ByDay    []DayUsage       `json:"by_day"`
	ByMember []MemberUsage    `json:"by_member"`
	Sources  []CitedSource    `json:"top_sources"`
	Reports  []ReportedAnswer `json:"reports"`
	// Tools is the AI use of each tool plugin (host.AI) over the period.
	Tools []ToolUsage `json:"tools"`
}

// Overview gathers usage per day and per member, the most cited sources
// and the reported answers of the last days (São Paulo calendar).
func (s *Service) Overview(ctx context.Context, days int) (Overview, error) {
	o := Overview{Days: days, ByDay: []DayUsage{}, ByMember: []MemberUsage{}, Sources: []CitedSource{}, Reports: []ReportedAnswer{}}
	today, _ := day(s.now())
	var err error
	from := today.AddDate(0, 0, -(days - 1)).Format(time.DateOnly)
	if o.Tools, err = s.ToolsUsage(ctx, today.AddDate(0, 0, -(days-1))); err != nil {
		return o, err
	}
	rows, err := s.pool.Query(ctx, `SELECT day::text, sum(messages)::int, sum(tokens)::bigint, sum(cost_usd)::float8, count(*) FILTER (WHERE messages > 0)::int
		FROM ai_usage_daily WHERE day >= $1::date GROUP BY day ORDER BY day DESC`, from)
	if err != nil {
		return o, fmt.Errorf("usage by day: %w", err)
	}
	for rows.Next() {
		var d DayUsage
		if err := rows.Scan(&d.Day, &d.Messages, &d.Tokens, &d.CostUSD, &d.Members); err != nil {
			rows.Close()
			return o, err
		}
		o.ByDay = append(o.ByDay, d)
	}
	rows.Close()
	rows, err = s.pool.Query(ctx, `SELECT u.id, u.email, coalesce(trim(p.first_name || ' ' || p.last_name), ''), sum(a.messages)::int, sum(a.tokens)::bigint, sum(a.cost_usd)::float8
		FROM ai_usage_daily a JOIN users u ON u.id = a.user_id LEFT JOIN profiles p ON p.user_id = u.id
		WHERE a.day >= $1::date GROUP BY u.id, u.email, p.first_name, p.last_name ORDER BY 4 DESC, 5 DESC LIMIT 50`, from)
	if err != nil {
		return o, fmt.Errorf("usage by member: %w", err)
	}
	for rows.Next() {
		var m MemberUsage
		if err := rows.Scan(&m.UserID, &m.Email, &m.Name, &m.Messages, &m.Tokens, &m.CostUSD); err != nil {
			rows.Close()
			return o, err
		}
		o.ByMember = append(o.ByMember, m)
	}
	rows.Close()
	rows, err = s.pool.Query(ctx, `SELECT src->>'item_id', max(src->>'title'), max(src->>'url'), count(*)::int
		FROM ai_messages m, jsonb_array_elements(m.sources) src
		WHERE m.role = 'assistant' AND m.created_at >= $1::date AND (src->>'cited')::boolean
		GROUP BY src->>'item_id' ORDER BY 4 DESC, 2 LIMIT 20`, from)
	if err != nil {
		return o, fmt.Errorf("cited sources: %w", err)
	}
	for rows.Next() {
		var c CitedSource
		if err := rows.Scan(&c.ItemID, &c.Title, &c.URL, &c.Cites); err != nil {
			rows.Close()
			return o, err
		}
		o.Sources = append(o.Sources, c)
	}
	rows.Close()
	rows, err = s.pool.Query(ctx, `SELECT m.id, c.id, c.title, u.email, r.reason,
		coalesce((SELECT q.content FROM ai_messages q WHERE q.conversation_id = m.conversation_id AND q.seq < m.seq AND q.role = 'user' ORDER BY q.seq DESC LIMIT 1), ''),
		left(m.content, 2000), r.created_at
		FROM ai_reports r JOIN ai_messages m ON m.id = r.message_id JOIN ai_conversations c ON c.id = m.conversation_id JOIN users u ON u.id = r.user_id
		ORDER BY r.created_at DESC LIMIT 50`)
	if err != nil {
		return o, fmt.Errorf("reports: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r ReportedAnswer
		if err := rows.Scan(&r.MessageID, &r.ConversationID, &r.Conversation, &r.Email, &r.Reason, &r.Question, &r.Answer, &r.ReportedAt); err != nil {
			return o, err
		}
		o.Reports = append(o.Reports, r)
	}
	return o, rows.Err()
}

// AdminOverview serves GET /api/admin/ai/overview[?days=30] (super admins).
func (h *HTTP) AdminOverview() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, _ string) error {
		days := 30
		if v := r.URL.Query().Get("days"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 366 {
				return core.Invalid("Período inválido.", map[string]string{"days": "De 1 a 366 dias."})
			}
			days = n
		}
		o, err := h.Service.Overview(r.Context(), days)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, o)
	})
}
