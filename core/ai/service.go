// Package ai is VetClube IA: the assistant's conversations with their
// history, the limits, answers grounded in VetClube's own published content
// with citations, and the veterinary safety rules. It talks to any
// OpenAI-compatible chat completions endpoint through openai-go; the key
// never leaves the core. With no endpoint configured the core starts the
// in-repo demonstration server (core/ai/fakeoai) and talks to it the same
// way.
package ai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input, Output float64
}

// Options configure the service.
type Options struct {
	// BaseURL, APIKey and Model address the OpenAI-compatible endpoint;
	// VisionModel answers questions with images (later).
	BaseURL, APIKey, Model, VisionModel string
	// Demo says the endpoint is the embedded demonstration server.
	Demo bool
	// Prices per model; a model without one costs 0.
	Prices map[string]Price
	// TrialDaily is the questions per day of São Paulo a member without a
	// paid plan may ask (TRIAL_LIMITS ai_consultations).
	TrialDaily int
	// PremiumDaily and PremiumMonthlyTokens are a premium member's daily
	// questions and monthly token budget.
	PremiumDaily         int
	PremiumMonthlyTokens int64
	// Premium says whether a member has a paid plan.
	Premium func(ctx context.Context, userID string) (bool, error)
	// Retries is how many times a request refused with 429 or 5xx (or not
	// answered) before its first byte is tried again; MaxBackoff caps the
	// wait (Retry-After included).
	Retries    int
	MaxBackoff time.Duration
	// CanOpenLesson says whether a member may open a course lesson (the
	// lesson page's rule: enrolment, free lessons, premium). A lesson is
	// retrieved only for members who may read it, so an answer never quotes
	// a lesson its reader could not open; nil: no lesson is retrieved.
	CanOpenLesson func(ctx context.Context, lessonID, userID string) (bool, error)
	// ToolLimits holds the daily AI generations per tool for members
	// without Premium, by ToolLimitType (TRIAL_LIMITS); a tool absent from
	// it gets prompt.DefaultTrialDaily. ToolPremiumDaily is Premium's cap
	// per tool (0: prompt.DefaultPremiumDaily).
	ToolLimits       map[string]int
	ToolPremiumDaily int
	// Calculators are the calculator forms the model may call (nil: none).
	Calculators Calculators
	// HTTPClient talks to the endpoint (tests); nil: a default one.
	HTTPClient *http.Client
	Now        func() time.Time
	Log        *slog.Logger
}

// Service is VetClube IA.
type Service struct {
	pool   *pgxpool.Pool
	o      Options
	client openai.Client
	now    func() time.Time
	log    *slog.Logger
}

// saoPaulo is the calendar the daily limits reset on (00:00 in São Paulo).
var saoPaulo = func() *time.Location {
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		return time.FixedZone("BRT", -3*3600) // no DST since 2019
	}
	return loc
}()

// New returns the service.
func New(pool *pgxpool.Pool, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 8 * time.Second
	}
	if o.Model == "" {
		o.Model = "gpt-4o-mini"
	}
	if o.Premium == nil {
		o.Premium = func(context.Context, string) (bool, error) { return false, nil }
	}
	hc := o.HTTPClient
	if hc == nil {
		// No overall timeout: an answer streams for as long as it takes;
		// the request's context ends it ('Parar', the member leaving).
		hc = &http.Client{Transport: &http.Transport{
			Proxy: http.ProxyFromEnvironment, ResponseHeaderTimeout: 60 * time.Second,
			IdleConnTimeout: 90 * time.Second, MaxIdleConnsPerHost: 16,
		}}
	}
	opts := []option.RequestOption{option.WithBaseURL(o.BaseURL), option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	key := o.APIKey
	if key == "" {
		key = "none"
	}
	opts = append(opts, option.WithAPIKey(key))
	return &Service{pool: pool, o: o, client: openai.NewClient(opts...), now: o.Now, log: o.Log}
}

// Demo reports whether answers come from the demonstration server.
func (s *Service) Demo() bool { return s.o.Demo }

// Model is the chat model's name.
func (s *Service) Model() string { return s.o.Model }

// Conversation is one of a member's conversations.
type Conversation struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Message is one turn of a conversation.
type Message struct {
	ID               string    `json:"id"`
	Seq              int       `json:"seq"`
	Role             string    `json:"role"`
	Content          string    `json:"content"`
	Status           string    `json:"status"`
	RedFlags         []string  `json:"red_flags"`
	Sources          []Source  `json:"sources"`
	Tools            []ToolRun `json:"tools"`
	Model            string    `json:"model,omitempty"`
	PromptTokens     int       `json:"prompt_tokens"`
	CompletionTokens int       `json:"completion_tokens"`
	LatencyMS        int       `json:"latency_ms"`
	CostUSD          float64   `json:"cost_usd"`
	CreatedAt        time.Time `json:"created_at"`
}

// ToolRun is one calculator result shown as a card in an answer.
type ToolRun struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Result string `json:"result"`
	Error  string `json:"error,omitempty"`
}

var errNotFound = core.Errorf(core.ENOTFOUND, "Conversa não encontrada.")

const maxTitle = 120

func checkTitle(t string) (string, error) {
	t = strings.Join(strings.Fields(t), " ")
	if t == "" {
		return "", core.Invalid("Dê um nome à conversa.", map[string]string{"title": "Obrigatório."})
	}
	if utf8.RuneCountInString(t) > maxTitle {
		return "", core.Invalid("O nome da conversa deve ter no máximo 120 caracteres.", map[string]string{"title": "Até 120 caracteres."})
	}
	return t, nil
}

// Create starts a conversation. A retried create with the same clientID
// returns the conversation the first one made.
func (s *Service) Create(ctx context.Context, userID, title, clientID string) (Conversation, error) {
	if title == "" {
		title = DefaultTitle
	}
	title, err := checkTitle(title)
	if err != nil {
		return Conversation{}, err
	}
	var cid *string
	if clientID != "" {
		if !isUUID(clientID) {
			return Conversation{}, core.Invalid("Identificador inválido.", map[string]string{"client_id": "Deve ser um UUID."})
		}
		cid = &clientID
	}
	var c Conversation
	err = s.pool.QueryRow(ctx, `
		WITH ins AS (
			INSERT INTO ai_conversations (user_id, client_id, title) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, client_id) DO NOTHING
			RETURNING id, title, created_at, updated_at)
		SELECT id, title, created_at, updated_at FROM ins
		UNION ALL
		SELECT id, title, created_at, updated_at FROM ai_conversations WHERE user_id = $1 AND client_id = $2
		LIMIT 1`, userID, cid, title).Scan(&c.ID, &c.Title, &c.CreatedAt, &c.UpdatedAt)
	if err != nil {
		return c, fmt.Errorf("create conversation: %w", err)
	}
	return c, nil
}

// List returns the member's conversations, newest activity first; q, when
// given, keeps those whose title or messages hold its words (accents
// ignored, word prefixes: "vacina" finds "vacinação").
func (s *Service) List(ctx context.Context, userID, q string) ([]Conversation, error) {
	args := []any{userID}
	where := "c.user_id = $1"
	if strings.TrimSpace(q) != "" {
		args = append(args, q)
		where += ` AND (c.search @@ vetclube_prefix_tsquery($2)
			OR EXISTS (SELECT 1 FROM ai_messages m WHERE m.conversation_id = c.id AND m.search @@ vetclube_prefix_tsquery($2)))`
	}
	rows, err := s.pool.Query(ctx, `SELECT c.id, c.title, c.created_at, c.updated_at FROM ai_conversations c
		WHERE `+where+` ORDER BY c.updated_at DESC, c.id LIMIT 200`, args...)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	defer rows.Close()
	out := []Conversation{}
	for rows.Next() {
		var c Conversation
		if err := rows.Scan(&c.ID, &c.Title, &c.CreatedAt, &c.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Get returns one of the member's conversations with its messages; another
// member's conversation is not found.
func (s *Service) Get(ctx context.Context, userID, id string) (Conversation, []Message, error) {
	var c Conversation
	if !isUUID(id) {
		return c, nil, errNotFound
	}
	err := s.pool.QueryRow(ctx, `SELECT id, title, created_at, updated_at FROM ai_conversations WHERE id = $1 AND user_id = $2`, id, userID).
		Scan(&c.ID, &c.Title, &c.CreatedAt, &c.UpdatedAt)
	if postgres.IsNoRows(err) {
		return c, nil, errNotFound
	}
	if err != nil {
		return c, nil, fmt.Errorf("get conversation: %w", err)
	}
	msgs, err := s.messages(ctx, s.pool, id)
	return c, msgs, err
}

type rowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func (s *Service) messages(ctx context.Context, q querier, convID string) ([]Message, error) {
	rows, err := q.Query(ctx, `SELECT id, seq, role, content, status, red_flags, sources, tools, model,
		prompt_tokens, completion_tokens, latency_ms, cost_usd::float8, created_at
		FROM ai_messages WHERE conversation_id = $1 ORDER BY seq`, convID)
	if err != nil {
		return nil, fmt.Errorf("messages: %w", err)
	}
	defer rows.Close()
	out := []Message{}
	for rows.Next() {
		var m Message
		if err := rows.Scan(&m.ID, &m.Seq, &m.Role, &m.Content, &m.Status, &m.RedFlags, &m.Sources, &m.Tools, &m.Model,
			&m.PromptTokens, &m.CompletionTokens, &m.LatencyMS, &m.CostUSD, &m.CreatedAt); err != nil {
			return nil, err
		}
		if m.Status == "streaming" && s.now().Sub(m.CreatedAt) > staleStream {
			m.Status = "failed"
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Rename changes a conversation's title.
func (s *Service) Rename(ctx context.Context, userID, id, title string) (Conversation, error) {
	var c Conversation
	title, err := checkTitle(title)
	if err != nil {
		return c, err
	}
	if !isUUID(id) {
		return c, errNotFound
	}
	err = s.pool.QueryRow(ctx, `UPDATE ai_conversations SET title = $3, updated_at = now() WHERE id = $1 AND user_id = $2
		RETURNING id, title, created_at, updated_at`, id, userID, title).Scan(&c.ID, &c.Title, &c.CreatedAt, &c.UpdatedAt)
	if postgres.IsNoRows(err) {
		return c, errNotFound
	}
	return c, err
}

// Delete removes a conversation and its messages; deleting one already
// gone is not an error (a retried delete), another member's is not found.
func (s *Service) Delete(ctx context.Context, userID, id string) error {
	if !isUUID(id) {
		return errNotFound
	}
	var owner string
	err := s.pool.QueryRow(ctx, `SELECT user_id FROM ai_conversations WHERE id = $1`, id).Scan(&owner)
	if postgres.IsNoRows(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if owner != userID {
		return errNotFound
	}
	_, err = s.pool.Exec(ctx, `DELETE FROM ai_conversations WHERE id = $1 AND user_id = $2`, id, userID)
	return err
}

// AcceptDisclaimer records that the member accepted the disclaimer.
func (s *Service) AcceptDisclaimer(ctx context.Context, userID string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO ai_disclaimer_acceptances (user_id, version) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET version = greatest(ai_disclaimer_acceptances.version, EXCLUDED.version),
		accepted_at = CASE WHEN ai_disclaimer_acceptances.version < EXCLUDED.version THEN now() ELSE ai_disclaimer_acceptances.accepted_at END`,
		userID, DisclaimerVersion)
	return err
}

func (s *Service) disclaimerAccepted(ctx context.Context, q rowQuerier, userID string) (bool, error) {
	var ok bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ai_disclaimer_acceptances WHERE user_id = $1 AND version >= $2)`, userID, DisclaimerVersion).Scan(&ok)
	return ok, err
}

// Report records a member's report of an answer in their own conversation.
func (s *Service) Report(ctx context.Context, userID, messageID, reason string) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = "Resposta reportada pelo membro."
	}
	if utf8.RuneCountInString(reason) > 1000 {
		return core.Invalid("O motivo deve ter no máximo 1000 caracteres.", map[string]string{"reason": "Até 1000 caracteres."})
	}
	if !isUUID(messageID) {
		return core.Errorf(core.ENOTFOUND, "Resposta não encontrada.")
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO ai_reports (message_id, user_id, reason)
		SELECT m.id, $2, $3 FROM ai_messages m JOIN ai_conversations c ON c.id = m.conversation_id
		 WHERE m.id = $1 AND c.user_id = $2 AND m.role = 'assistant'
		ON CONFLICT (message_id, user_id) DO UPDATE SET reason = EXCLUDED.reason`, messageID, userID, reason)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return core.Errorf(core.ENOTFOUND, "Resposta não encontrada.")
	}
	return nil
}

// Quota is what a member may still ask.
type Quota struct {
	Premium bool `json:"premium"`
	// DailyLimit and UsedToday count questions of today (São Paulo).
	DailyLimit int `json:"daily_limit"`
	UsedToday  int `json:"used_today"`
	Remaining  int `json:"remaining"`
	// MonthlyTokens and TokensThisMonth: premium's token budget.
	MonthlyTokens   int64     `json:"monthly_tokens,omitempty"`
	TokensThisMonth int64     `json:"tokens_this_month,omitempty"`
	ResetsAt        time.Time `json:"resets_at"`
}

// day is the São Paulo calendar day of t, and the next midnight there.
func day(t time.Time) (time.Time, time.Time) {
	l := t.In(saoPaulo)
	d := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, saoPaulo)
	return d, d.AddDate(0, 0, 1)
}

// Quota reports the member's limits and use.
func (s *Service) Quota(ctx context.Context, userID string) (Quota, error) {
	premium, err := s.o.Premium(ctx, userID)
	if err != nil {
		return Quota{}, err
	}
	d, next := day(s.now())
	q := Quota{Premium: premium, ResetsAt: next, DailyLimit: s.o.TrialDaily}
	if premium {
		q.DailyLimit, q.MonthlyTokens = s.o.PremiumDaily, s.o.PremiumMonthlyTokens
	}
	month := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, saoPaulo)
	err = s.pool.QueryRow(ctx, `SELECT
		coalesce((SELECT messages FROM ai_usage_daily WHERE user_id = $1 AND day = $2::date), 0),
		coalesce((SELECT sum(tokens) FROM ai_usage_daily WHERE user_id = $1 AND day >= $3::date AND day < $4::date), 0)::bigint`,
		userID, d.Format(time.DateOnly), month.Format(time.DateOnly), month.AddDate(0, 1, 0).Format(time.DateOnly)).
		Scan(&q.UsedToday, &q.TokensThisMonth)
	if err != nil {
		return q, fmt.Errorf("quota: %w", err)
	}
	q.Remaining = max(0, q.DailyLimit-q.UsedToday)
	if premium && q.MonthlyTokens > 0 && q.TokensThisMonth >= q.MonthlyTokens {
		q.Remaining = 0
	}
	return q, nil
}

// UsedToday is today's questions (São Paulo), what check_trial_limits
// reports for ai_consultations.
func (s *Service) UsedToday(ctx context.Context, userID string) (int, error) {
	d, _ := day(s.now())
	var n int
	err := s.pool.QueryRow(ctx, `SELECT coalesce((SELECT messages FROM ai_usage_daily WHERE user_id = $1 AND day = $2::date), 0)`,
		userID, d.Format(time.DateOnly)).Scan(&n)
	return n, err
}

// Limit messages (429).
const (
	MsgTrialLimit = "Você usou as %d consultas diárias à VetClube IA do seu plano. Elas voltam à meia-noite (horário de Brasília). " +
		"Assine o Premium para consultar a VetClube IA sem o limite do teste."
	MsgPremiumDaily  = "Você atingiu o limite diário de %d consultas à VetClube IA. Ele volta à meia-noite (horário de Brasília)."
	MsgPremiumTokens = "Você atingiu o volume mensal de uso da VetClube IA do seu plano. Ele se renova no dia 1º do próximo mês."
	MsgBusy          = "Aguarde: a resposta anterior desta conversa ainda está sendo escrita."
)

// LimitError is the 429 of a limit, with what the page shows.
type LimitError struct {
	Err   *core.Error
	Quota Quota
}

func (e *LimitError) Error() string { return e.Err.Error() }

// Unwrap lets core.ErrorCode and core.ErrorMessage read the 429.
func (e *LimitError) Unwrap() error { return e.Err }

// staleStream is how long an answer may stay "streaming" before it counts
// as failed (a server that died mid-answer).
const staleStream = 10 * time.Minute

// AskInput is one question sent.
type AskInput struct {
	Content  string `json:"content"`
	ClientID string `json:"client_id,omitempty"`
	// EditOf is one of the member's own earlier questions: it and every
	// later turn are replaced by this one ('Editar e reenviar').
	EditOf string `json:"edit_of,omitempty"`
	// Regenerate answers the last question again (Content empty).
	Regenerate bool `json:"regenerate,omitempty"`
}

// MaxQuestion is the longest question, in characters.
const MaxQuestion = 4000

// Turn is a question accepted and its answer to stream.
type Turn struct {
	UserID         string
	ConversationID string
	Title          string
	Question       Message
	AnswerID       string
	AnswerSeq      int
	RedFlags       []string
	Controlled     bool
	history        []Message
	Quota          Quota
	day            time.Time // the São Paulo day the question was counted on
}

// Begin validates a question, applies the limits and records the question
// and an empty answer (status streaming) in one transaction: the limit
// counts it only when it is stored.
func (s *Service) Begin(ctx context.Context, userID, convID string, in AskInput) (*Turn, error) {
	in.Content = strings.TrimSpace(in.Content)
	if !in.Regenerate {
		if in.Content == "" {
			return nil, core.Invalid("Escreva sua pergunta.", map[string]string{"content": "Obrigatório."})
		}
		if utf8.RuneCountInString(in.Content) > MaxQuestion {
			return nil, core.Invalid("A pergunta deve ter no máximo 4000 caracteres.", map[string]string{"content": "Até 4000 caracteres."})
		}
	}
	if in.ClientID != "" && !isUUID(in.ClientID) {
		return nil, core.Invalid("Identificador inválido.", map[string]string{"client_id": "Deve ser um UUID."})
	}
	if in.EditOf != "" && !isUUID(in.EditOf) {
		return nil, core.Invalid("Mensagem a editar inválida.", map[string]string{"edit_of": "Deve ser um UUID."})
	}
	if !isUUID(convID) {
		return nil, errNotFound
	}
	premium, err := s.o.Premium(ctx, userID)
	if err != nil {
		return nil, err
	}
	t := &Turn{UserID: userID, ConversationID: convID}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var title string
		err := tx.QueryRow(ctx, `SELECT title FROM ai_conversations WHERE id = $1 AND user_id = $2 FOR UPDATE`, convID, userID).Scan(&title)
		if postgres.IsNoRows(err) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		ok, err := s.disclaimerAccepted(ctx, tx, userID)
		if err != nil {
			return err
		}
		if !ok {
			return core.Errorf(core.ECONFLICT, "Aceite o aviso de uso da VetClube IA antes de perguntar.")
		}
		msgs, err := s.messages(ctx, tx, convID)
		if err != nil {
			return err
		}
		if in.ClientID != "" {
			// A retried question (same client key) is refused before it
			// is counted again.
			var sent bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ai_messages WHERE conversation_id = $1 AND client_id = $2)`, convID, in.ClientID).Scan(&sent); err != nil {
				return err
			}
			if sent {
				return core.Errorf(core.ECONFLICT, "Esta pergunta já foi enviada.")
			}
		}
		for _, m := range msgs {
			if m.Status == "streaming" {
				return core.Errorf(core.ECONFLICT, MsgBusy)
			}
		}
		// Where the new turn goes: after everything, in place of an
		// edited question, or (regenerate) after the last question.
		keep := len(msgs)
		switch {
		case in.Regenerate:
			i := len(msgs) - 1
			for i >= 0 && msgs[i].Role != "user" {
				i--
			}
			if i < 0 {
				return core.Invalid("Não há pergunta para responder de novo.", map[string]string{"regenerate": "Conversa sem perguntas."})
			}
			in.Content = msgs[i].Content
			keep = i + 1
			t.Question = msgs[i]
		case in.EditOf != "":
			i := 0
			for i < len(msgs) && !(msgs[i].ID == in.EditOf && msgs[i].Role == "user") {
				i++
			}
			if i == len(msgs) {
				return core.Errorf(core.ENOTFOUND, "Mensagem a editar não encontrada.")
			}
			keep = i
		}
		if err := s.count(ctx, tx, userID, premium, t); err != nil {
			return err
		}
		if keep < len(msgs) {
			if _, err := tx.Exec(ctx, `DELETE FROM ai_messages WHERE conversation_id = $1 AND seq > $2`, convID, keep); err != nil {
				return err
			}
		}
		t.history = msgs[:keep]
		next := keep + 1
		if !in.Regenerate {
			var cid *string
			if in.ClientID != "" {
				cid = &in.ClientID
			}
			t.Question = Message{Role: "user", Content: in.Content, Status: "complete", Seq: next, RedFlags: []string{}, Sources: []Source{}, Tools: []ToolRun{}}
			err = tx.QueryRow(ctx, `INSERT INTO ai_messages (conversation_id, seq, role, client_id, content) VALUES ($1, $2, 'user', $3, $4)
				RETURNING id, created_at`, convID, next, cid, in.Content).Scan(&t.Question.ID, &t.Question.CreatedAt)
			if postgres.IsUniqueViolation(err, "ai_messages_client") {
				return core.Errorf(core.ECONFLICT, "Esta pergunta já foi enviada.")
			}
			if err != nil {
				return err
			}
			next++
		}
		t.RedFlags = RedFlags(in.Content)
		t.Controlled = AsksControlledPrescription(in.Content)
		t.AnswerSeq = next
		if err := tx.QueryRow(ctx, `INSERT INTO ai_messages (conversation_id, seq, role, status, red_flags, model) VALUES ($1, $2, 'assistant', 'streaming', $3, $4)
			RETURNING id`, convID, next, t.RedFlags, s.o.Model).Scan(&t.AnswerID); err != nil {
			return err
		}
		// The first question names a conversation still called by default.
		if title == DefaultTitle && keep == 0 {
			title = TitleFrom(in.Content)
		}
		t.Title = title
		_, err = tx.Exec(ctx, `UPDATE ai_conversations SET title = $2, updated_at = now() WHERE id = $1`, convID, title)
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// count applies the limits and counts one question for today, atomically
// (a concurrent question cannot pass a limit the other reached).
func (s *Service) count(ctx context.Context, tx pgx.Tx, userID string, premium bool, t *Turn) error {
	d, next := day(s.now())
	limit := s.o.TrialDaily
	if premium {
		limit = s.o.PremiumDaily
		if s.o.PremiumMonthlyTokens > 0 {
			month := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, saoPaulo)
			var used int64
			if err := tx.QueryRow(ctx, `SELECT coalesce(sum(tokens), 0)::bigint FROM ai_usage_daily WHERE user_id = $1 AND day >= $2::date AND day < $3::date`,
				userID, month.Format(time.DateOnly), month.AddDate(0, 1, 0).Format(time.DateOnly)).Scan(&used); err != nil {
				return err
			}
			if used >= s.o.PremiumMonthlyTokens {
				q := Quota{Premium: true, DailyLimit: limit, MonthlyTokens: s.o.PremiumMonthlyTokens, TokensThisMonth: used, ResetsAt: month.AddDate(0, 1, 0)}
				return &LimitError{Err: core.Errorf(core.ERATELIMITED, MsgPremiumTokens), Quota: q}
			}
		}
	}
	var used int
	err := tx.QueryRow(ctx, `INSERT INTO ai_usage_daily (user_id, day, messages) SELECT $1, $2::date, 1 WHERE $3 > 0
		ON CONFLICT (user_id, day) DO UPDATE SET messages = ai_usage_daily.messages + 1 WHERE ai_usage_daily.messages < $3
		RETURNING messages`, userID, d.Format(time.DateOnly), limit).Scan(&used)
	q := Quota{Premium: premium, DailyLimit: limit, ResetsAt: next}
	if postgres.IsNoRows(err) {
		q.UsedToday = limit
		msg := fmt.Sprintf(MsgTrialLimit, limit)
		if premium {
			msg = fmt.Sprintf(MsgPremiumDaily, limit)
		}
		return &LimitError{Err: core.Errorf(core.ERATELIMITED, "%s", msg), Quota: q}
	}
	if err != nil {
		return fmt.Errorf("count question: %w", err)
	}
	t.day = d
	q.UsedToday, q.Remaining = used, max(0, limit-used)
	if premium {
		q.MonthlyTokens = s.o.PremiumMonthlyTokens
	}
	t.Quota = q
	return nil
}

// Event is one server-sent event of an answer.
type Event struct {
	Name string
	Data any
}

// Answer is how an answer ended.
type Answer struct {
	Message
	// Stopped: the member stopped it ('Parar') or went away.
	Retryable bool   `json:"retryable"`
	Error     string `json:"error,omitempty"`
}

// MsgFailed is shown when the service failed before or during an answer.
const MsgFailed = "A VetClube IA não conseguiu concluir a resposta. O que chegou foi guardado; tente novamente."

// Stream answers the turn, calling emit for each event: "alert" first when
// the question shows red flags, "turn" (the stored question), "sources", then "delta" as text arrives,
// and "done" with the stored answer. When ctx ends (the member pressed
// 'Parar' or left) the request upstream is aborted at once and what arrived
// is saved marked stopped. An answer is always saved, whatever happens.
func (s *Service) Stream(ctx context.Context, t *Turn, emit func(Event) error) Answer {
	start := s.now()
	if len(t.RedFlags) > 0 {
		_ = emit(Event{"alert", map[string]any{"red_flags": t.RedFlags, "text": EmergencyBanner(t.RedFlags)}})
	}
	_ = emit(Event{"turn", map[string]any{"conversation_id": t.ConversationID, "title": t.Title,
		"question": t.Question, "answer_id": t.AnswerID, "quota": t.Quota}})
	sources, err := s.Retrieve(ctx, t.UserID, t.Question.Content)
	if err != nil && ctx.Err() == nil {
		s.log.Error("ai retrieval", "err", err)
	}
	if sources == nil {
		sources = []Source{}
	}
	_ = emit(Event{"sources", map[string]any{"sources": sources}})

	var text strings.Builder
	if t.Controlled {
		text.WriteString(ControlledNotice + "\n\n")
		_ = emit(Event{"delta", map[string]string{"text": ControlledNotice + "\n\n"}})
	}
	if d := NotifiableDiseases(t.Question.Content); len(d) > 0 {
		n := NotifiableNotice(d) + "\n\n"
		text.WriteString(n)
		_ = emit(Event{"delta", map[string]string{"text": n}})
	}
	msgs := s.prompt(t, sources)
	fns, toolParams := s.functions()
	tools := []ToolRun{}
	var res completion
	var usage openai.CompletionUsage
	for round := 0; ; round++ {
		offer := toolParams
		if round >= MaxToolRounds {
			offer = nil // the last word is the model's text
		}
		res = s.complete(ctx, msgs, offer, func(delta string) {
			text.WriteString(delta)
			_ = emit(Event{"delta", map[string]string{"text": delta}})
		})
		usage.PromptTokens += res.usage.PromptTokens
		usage.CompletionTokens += res.usage.CompletionTokens
		if res.err != nil || ctx.Err() != nil || len(res.calls) == 0 || offer == nil {
			break
		}
		var calls []openai.ChatCompletionMessageToolCallUnionParam
		for _, c := range res.calls {
			calls = append(calls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: c.ID, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Args.String()},
			}})
		}
		msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}})
		for _, c := range res.calls {
			out, run := s.runTool(ctx, t.UserID, fns, c)
			tools = append(tools, run)
			_ = emit(Event{"tool", run})
			msgs = append(msgs, openai.ToolMessage(out, c.ID))
		}
	}
	res.usage = usage
	status := "complete"
	errText := ""
	switch {
	case ctx.Err() != nil:
		status = "stopped"
	case res.err != nil:
		status = "failed"
		errText = res.err.Error()
		s.log.Warn("ai answer failed", "conversation", t.ConversationID, "err", res.err, "partial_chars", text.Len())
	case res.finish == "length":
		status = "length"
	}
	content, cited := KeepCitations(text.String(), len(sources))
	content = MarkDoses(content)
	for i := range sources {
		for _, n := range cited {
			if sources[i].N == n {
				sources[i].Cited = true
			}
		}
	}
	if res.usage.CompletionTokens == 0 && text.Len() > 0 {
		// No usage in the stream (stopped, failed, or an endpoint that
		// does not send it): an estimate, about four characters a token.
		res.usage.CompletionTokens = int64(utf8.RuneCountInString(text.String())/4 + 1)
		if res.usage.PromptTokens == 0 {
			res.usage.PromptTokens = int64(res.promptChars/4 + 1)
		}
	}
	price := s.o.Prices[s.o.Model]
	cost := (float64(res.usage.PromptTokens)*price.Input + float64(res.usage.CompletionTokens)*price.Output) / 1e6
	latency := s.now().Sub(start)
	a := Answer{Message: Message{
		ID: t.AnswerID, Seq: t.AnswerSeq, Role: "assistant", Content: content, Status: status, RedFlags: t.RedFlags,
		Sources: sources, Tools: tools, Model: s.o.Model, PromptTokens: int(res.usage.PromptTokens),
		CompletionTokens: int(res.usage.CompletionTokens), LatencyMS: int(latency.Milliseconds()), CostUSD: cost,
	}}
	if status == "failed" {
		a.Retryable, a.Error = true, MsgFailed
	}
	// Saved whatever happened to the request: the member may be gone.
	save, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var firstByte *int
	if res.firstByte > 0 {
		ms := int(res.firstByte.Milliseconds())
		firstByte = &ms
	}
	err = postgres.InTx(save, s.pool, func(tx pgx.Tx) error {
		srcJSON, _ := json.Marshal(sources)
		toolsJSON, _ := json.Marshal(tools)
		if err := tx.QueryRow(save, `UPDATE ai_messages SET content = $2, status = $3, sources = $4, model = $5, prompt_tokens = $6,
			completion_tokens = $7, latency_ms = $8, first_byte_ms = $9, cost_usd = $10, error = $11, tools = $12, updated_at = now()
			WHERE id = $1 RETURNING created_at`, t.AnswerID, content, status, srcJSON, s.o.Model, a.PromptTokens, a.CompletionTokens,
			a.LatencyMS, firstByte, cost, errText, toolsJSON).Scan(&a.CreatedAt); err != nil && !postgres.IsNoRows(err) {
			// No row: the member deleted the conversation meanwhile; the
			// tokens spent still count.
			return err
		}
		d, _ := day(start)
		_, err := tx.Exec(save, `INSERT INTO ai_usage_daily (user_id, day, tokens, cost_usd) VALUES ($1, $2::date, $3, $4)
			ON CONFLICT (user_id, day) DO UPDATE SET tokens = ai_usage_daily.tokens + EXCLUDED.tokens, cost_usd = ai_usage_daily.cost_usd + EXCLUDED.cost_usd`,
			t.UserID, d.Format(time.DateOnly), a.PromptTokens+a.CompletionTokens, cost)
		if err != nil {
			return err
		}
		if status == "failed" && content == "" {
			// The service gave nothing: the question does not use up the quota.
			if _, err := tx.Exec(save, `UPDATE ai_usage_daily SET messages = greatest(messages - 1, 0) WHERE user_id = $1 AND day = $2::date`,
				t.UserID, t.day.Format(time.DateOnly)); err != nil {
				return err
			}
		}
		_, err = tx.Exec(save, `UPDATE ai_conversations SET updated_at = now() WHERE id = $1`, t.ConversationID)
		return err
	})
	if err != nil {
		s.log.Error("ai save answer", "conversation", t.ConversationID, "err", err)
	}
	_ = emit(Event{"done", a})
	return a
}

// prompt is the messages sent upstream: the rules with the numbered
// sources, the conversation so far (the last turns), and the question.
func (s *Service) prompt(t *Turn, sources []Source) []openai.ChatCompletionMessageParamUnion {
	var sys strings.Builder
	sys.WriteString(systemPrompt)
	if len(sources) > 0 {
		sys.WriteString("\n\nFontes do VetClube:\n")
		for _, src := range sources {
			fmt.Fprintf(&sys, "\n[%d] %s (%s)\n%s\n---\n", src.N, oneLine(src.Title), src.URL, src.Text)
		}
	} else {
		sys.WriteString("\n\nNenhuma fonte do VetClube foi encontrada para esta pergunta: não cite fontes.")
	}
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(sys.String())}
	hist := t.history
	if len(hist) > 12 {
		hist = hist[len(hist)-12:]
	}
	for _, m := range hist {
		c := m.Content
		if utf8.RuneCountInString(c) > 4000 {
			c = string([]rune(c)[:4000])
		}
		switch {
		case m.Role == "user":
			msgs = append(msgs, openai.UserMessage(c))
		case m.Role == "assistant" && c != "":
			msgs = append(msgs, openai.AssistantMessage(c))
		}
	}
	msgs = append(msgs, openai.UserMessage(t.Question.Content))
	return msgs
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

type completion struct {
	calls       []*toolCall
	finish      string
	usage       openai.CompletionUsage
	firstByte   time.Duration
	promptChars int
	err         error
}

// complete streams one completion, calling onText for each delta. A 429,
// a 5xx or a failed connection before the first chunk is retried with
// backoff (Retry-After honoured, capped); after the first chunk a failure
// ends the answer with what arrived.
func (s *Service) complete(ctx context.Context, msgs []openai.ChatCompletionMessageParamUnion, tools []openai.ChatCompletionToolUnionParam, onText func(string), mods ...func(*openai.ChatCompletionNewParams)) completion {
	var res completion
	for _, m := range msgs {
		if c := m.GetContent().AsAny(); c != nil {
			if str, ok := c.(*string); ok && str != nil {
				res.promptChars += utf8.RuneCountInString(*str)
			}
		}
	}
	params := openai.ChatCompletionNewParams{
		Model:         openai.ChatModel(s.o.Model),
		Messages:      msgs,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		Tools:         tools,
	}
	for _, m := range mods {
		m(&params)
	}
	start := s.now()
	for attempt := 0; ; attempt++ {
		stream := s.client.Chat.Completions.NewStreaming(ctx, params)
		got := false
		for stream.Next() {
			ch := stream.Current()
			if !got {
				got = true
				res.firstByte = s.now().Sub(start)
			}
			if ch.Usage.TotalTokens > 0 || ch.Usage.CompletionTokens > 0 {
				res.usage = ch.Usage
			}
			for _, c := range ch.Choices {
				if c.Delta.Content != "" {
					onText(c.Delta.Content)
				}
				// A call arrives in pieces: its index names it, the first
				// piece carries id and name, the arguments come in parts.
				for _, tc := range c.Delta.ToolCalls {
					if tc.Index < 0 || tc.Index >= 16 {
						continue
					}
					for int(tc.Index) >= len(res.calls) {
						res.calls = append(res.calls, &toolCall{})
					}
					call := res.calls[tc.Index]
					if tc.ID != "" {
						call.ID = tc.ID
					}
					if tc.Function.Name != "" {
						call.Name = tc.Function.Name
					}
					call.Args.WriteString(tc.Function.Arguments)
				}
				if c.FinishReason != "" {
					res.finish = c.FinishReason
				}
			}
		}
		err := stream.Err()
		_ = stream.Close()
		if err == nil {
			if res.finish == "" && ctx.Err() == nil {
				res.err = errors.New("stream ended without finish_reason")
			}
			return res
		}
		if ctx.Err() != nil {
			return res
		}
		wait, retry := s.backoff(err, attempt)
		if got || !retry || attempt >= s.o.Retries {
			res.err = err
			return res
		}
		s.log.Info("ai upstream retry", "attempt", attempt+1, "wait", wait, "err", err)
		select {
		case <-ctx.Done():
			return res
		case <-time.After(wait):
		}
	}
}

// backoff says whether err is worth another try before the first byte,
// and how long to wait: Retry-After when the endpoint sent one, else
// 0.5 s doubling, capped at MaxBackoff.
func (s *Service) backoff(err error, attempt int) (time.Duration, bool) {
	wait := min(time.Duration(500<<attempt)*time.Millisecond, s.o.MaxBackoff)
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		if apiErr.StatusCode != http.StatusTooManyRequests && apiErr.StatusCode < 500 {
			return 0, false
		}
		if apiErr.Response != nil {
			if v := apiErr.Response.Header.Get("Retry-After"); v != "" {
				if n, err := strconv.ParseFloat(v, 64); err == nil && n >= 0 {
					wait = min(time.Duration(n*float64(time.Second)), s.o.MaxBackoff)
				} else if at, err := http.ParseTime(v); err == nil {
					wait = min(max(0, time.Until(at)), s.o.MaxBackoff)
				}
			}
		}
		return wait, true
	}
	return wait, true // no answer at all: the connection failed
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return false
			}
		}
	}
	return true
}

// ParsePrices reads AI_PRICES: "model=input/output,…", US dollars per
// million input and output tokens.
func ParsePrices(v string) (map[string]Price, error) {
	out := map[string]Price{}
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		model, io, ok := strings.Cut(part, "=")
		in, outp, ok2 := strings.Cut(io, "/")
		pi, err1 := strconv.ParseFloat(strings.TrimSpace(in), 64)
		po, err2 := strconv.ParseFloat(strings.TrimSpace(outp), 64)
		if !ok || !ok2 || err1 != nil || err2 != nil || pi < 0 || po < 0 || strings.TrimSpace(model) == "" {
			return nil, fmt.Errorf("AI_PRICES: %q is not model=input/output (dollars per million tokens)", part)
		}
		out[strings.TrimSpace(model)] = Price{Input: pi, Output: po}
	}
	return out, nil
}
