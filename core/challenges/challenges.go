// Package challenges is the core side of the challenges content type
// (plugin plugins/desafios): the challenges' reading model
// (challenge_listings, typed from each published snapshot by a trigger),
// the active, upcoming and finished lists, a challenge's page, the members'
// participations (answers saved as they go, submitted once, scored here,
// VetCoins credited exactly once through core/points; measured kinds — a
// study streak counting course lessons, a community challenge counting
// accepted answers — completed against their goal), the trial limit
// "challenges", the weekly ranking (everyone or the member's connections),
// streak badges, the notices (a new challenge in the member's specialty, a
// draft about to close, the week's ranking) and the hand-over of every
// period change to the durable timers (workflows/challenges.go).
package challenges

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the ranking's week is São Paulo's on any machine

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// TypeID is the challenges content type (plugins/desafios).
const TypeID = "desafios"

// LimitType is the TRIAL_LIMITS entry that bounds how many challenges a
// member without a paid plan (the trial included) may take part in.
const LimitType = "challenges"

// DefaultZone is the zone whose Monday starts the ranking's week.
const DefaultZone = "America/Sao_Paulo"

// EndingSoonLead is how long before the end a member with unsent answers
// is reminded.
const EndingSoonLead = 24 * time.Hour

// MaxQuestions is how many questions a challenge holds at most.
const MaxQuestions = 5

// The measured kinds have no questions: VetClube counts what the member
// did between the start and the end against the challenge's Goal. A study
// streak counts course lessons completed; a community challenge counts the
// member's comments accepted as a post's answer.
const (
	KindStudy     = "estudos"
	KindCommunity = "comunidade"
)

// measured reports whether kind is counted rather than answered.
func measured(kind string) bool { return kind == KindStudy || kind == KindCommunity }

// Participation statuses.
const (
	StatusInProgress = "in_progress"
	StatusSubmitted  = "submitted"
	StatusClosed     = "closed"
)

// Phases of a challenge, as the lists name them.
const (
	PhaseUpcoming = "upcoming"
	PhaseActive   = "active"
	PhaseFinished = "finished"
)

// Refusals (core.Error Fields["access"]) the web app turns into the Premium
// invitation.
const (
	AccessPremium    = "premium_required"
	AccessTrialLimit = "trial_limit"
)

// Messages members see.
const (
	MsgNotFound        = "Desafio não encontrado."
	MsgNotStarted      = "Este desafio ainda não começou."
	MsgClosed          = "Este desafio está encerrado: as respostas não podem mais ser enviadas."
	MsgAlreadySent     = "Você já enviou suas respostas para este desafio."
	MsgPremiumOnly     = "Este desafio é exclusivo para assinantes Premium."
	MsgAnswerAll       = "Responda todas as perguntas antes de enviar."
	MsgBadAnswers      = "Resposta inválida."
	MsgBadQuestion     = "Pergunta inexistente."
	MsgBadLetter       = "Escolha uma das alternativas."
	MsgBadPhase        = "Escolha ativos, próximos ou encerrados."
	MsgBadScope        = "Escolha geral ou conexões."
	MsgBadWeek         = "Informe a semana no formato AAAA-MM-DD."
	MsgUnknownFilter   = "Filtro desconhecido."
	MsgGoalNotMet      = "Conclua %d aulas para completar o desafio: você concluiu %d desde o início."
	MsgAnswersNotMet   = "Tenha %d respostas aceitas na comunidade para completar o desafio: você tem %d desde o início."
	letters            = "ABCDE"
	challengeKeyPrefix = "challenge:"
)

// Question is one of a challenge's questions. Correct and Explanation are
// set only once the explanation is unlocked (after submitting, or after the
// end).
type Question struct {
	Number      int      `json:"number"`
	Text        string   `json:"text"`
	Options     []string `json:"options"`
	Correct     string   `json:"correct,omitempty"`
	Explanation string   `json:"explanation,omitempty"`
}

// Participation is the member's take on one challenge.
type Participation struct {
	Status        string            `json:"status"`
	Answers       map[string]string `json:"answers"`
	Answered      int               `json:"answered"`
	Correct       int               `json:"correct"`
	Total         int               `json:"total"`
	PointsAwarded int               `json:"points_awarded"`
	StartedAt     time.Time         `json:"started_at"`
	SubmittedAt   *time.Time        `json:"submitted_at"`
}

// Challenge is a challenge as members see it.
type Challenge struct {
	ID            string    `json:"id"`
	Slug          string    `json:"slug"`
	Title         string    `json:"title"`
	Summary       string    `json:"summary"`
	Description   string    `json:"description"`
	Kind          string    `json:"kind"`
	Difficulty    string    `json:"difficulty"`
	Specialty     string    `json:"specialty"`
	Points        int       `json:"points"`
	PremiumOnly   bool      `json:"premium_only"`
	StartsAt      time.Time `json:"starts_at"`
	EndsAt        time.Time `json:"ends_at"`
	Phase         string    `json:"phase"`
	QuestionCount int       `json:"question_count"`
	// Goal is a measured kind's goal (lessons, accepted answers); Done
	// what the member did since the start (up to the end): on the page,
	// and in lists once they take part.
	Goal int            `json:"goal,omitempty"`
	Done *int           `json:"done,omitempty"`
	Me   *Participation `json:"me"`

	// The page's own fields (Get).
	History      string     `json:"history,omitempty"`
	ExamFindings string     `json:"exam_findings,omitempty"`
	Images       []string   `json:"images,omitempty"`
	Questions    []Question `json:"questions,omitempty"`
	Explanation  string     `json:"explanation,omitempty"`
	// Unlocked: the expected answers and explanations are shown.
	Unlocked bool `json:"unlocked"`
	// Access is a refusal (AccessPremium) that hides the case; "" when open.
	Access string `json:"access,omitempty"`

	closedAt  *time.Time
	published bool
	fields    map[string]any
}

// Timers are the challenges' durable timers (workflows.ChallengeTimers on
// Temporal).
type Timers interface {
	// Schedule sets or moves item itemID's start announcement, its
	// ending-soon reminder and its close to the given period.
	Schedule(ctx context.Context, itemID string, startsAt, endsAt time.Time) error
}

// Subscriptions is what challenges need of core/subscriptions.
type Subscriptions interface {
	View(ctx context.Context, userID string) (subscriptions.View, error)
	RecordUsageTx(ctx context.Context, q subscriptions.RowQuerier, userID, limitType string) (subscriptions.LimitCheck, error)
}

// Notifier sends the challenges' notices (core/notifications: preferences
// and quiet hours are applied there).
type Notifier interface {
	notifications.Sender
	SendMany(ctx context.Context, in notifications.Notice, userIDs []string) (notifications.Broadcast, error)
}

// Lessons counts the course lessons a member completed in a period
// (core/courses).
type Lessons interface {
	CompletedLessons(ctx context.Context, userID string, from, to time.Time) (int, error)
}

// Answers counts a member's comments accepted as a post's answer in a
// period (core/community).
type Answers interface {
	AcceptedAnswers(ctx context.Context, userID string, from, to time.Time) (int, error)
}

// Service serves challenges.
type Service struct {
	pool    *pgxpool.Pool
	subs    Subscriptions
	notify  Notifier
	timers  Timers
	lessons Lessons
	answers Answers
	zone    *time.Location
	now     func() time.Time
	log     *slog.Logger
}

// Options configures a Service.
type Options struct {
	Subscriptions Subscriptions
	Notify        Notifier // nil: no notices
	Timers        Timers   // nil: no timers (no Temporal)
	Lessons       Lessons  // nil: study streaks count no lessons
	Answers       Answers  // nil: community challenges count no answers
	Now           func() time.Time
	Log           *slog.Logger
}

// New returns a service on pool.
func New(pool *pgxpool.Pool, opts Options) (*Service, error) {
	zone, err := time.LoadLocation(DefaultZone)
	if err != nil {
		return nil, fmt.Errorf("challenges: zone: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, subs: opts.Subscriptions, notify: opts.Notify, timers: opts.Timers, lessons: opts.Lessons, answers: opts.Answers,
		zone: zone, now: opts.Now, log: opts.Log}, nil
}

// SetTimers sets the durable timers once they exist.
func (s *Service) SetTimers(t Timers) { s.timers = t }

// KeyOf is the ledger's idempotency key of member userID's points for
// challenge challengeID: one credit per member and challenge.
func KeyOf(challengeID, userID string) string { return challengeKeyPrefix + challengeID + ":" + userID }

const listColumns = `l.item_id::text, l.slug, l.title, l.summary, l.description, l.kind, l.difficulty, l.specialty, l.points,
	l.premium_only, l.goal, l.starts_at, l.ends_at, l.closed_at, l.published, l.case_fields,
	p.status, p.answers, p.correct, p.total, p.points_awarded, p.started_at, p.submitted_at`

func (s *Service) scan(row pgx.Row) (Challenge, error) {
	var c Challenge
	var status *string
	var answers []byte
	var correct, total, awarded *int
	var started *time.Time
	var submitted *time.Time
	var raw []byte
	err := row.Scan(&c.ID, &c.Slug, &c.Title, &c.Summary, &c.Description, &c.Kind, &c.Difficulty, &c.Specialty, &c.Points,
		&c.PremiumOnly, &c.Goal, &c.StartsAt, &c.EndsAt, &c.closedAt, &c.published, &raw,
		&status, &answers, &correct, &total, &awarded, &started, &submitted)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(raw, &c.fields); err != nil {
		return c, fmt.Errorf("challenge fields: %w", err)
	}
	c.QuestionCount = len(questionsOf(c.fields))
	c.Phase = s.phase(c)
	if status != nil {
		p := &Participation{Status: *status, Correct: *correct, Total: *total, PointsAwarded: *awarded, StartedAt: *started, SubmittedAt: submitted}
		if err := json.Unmarshal(answers, &p.Answers); err != nil {
			return c, fmt.Errorf("challenge answers: %w", err)
		}
		p.Answered = len(p.Answers)
		c.Me = p
	}
	return c, nil
}

// phase says where c stands now: a challenge the end timer closed is
// finished even if its end was moved (the timer then reopens it).
func (s *Service) phase(c Challenge) string {
	now := s.now()
	switch {
	case now.Before(c.StartsAt):
		return PhaseUpcoming
	case now.Before(c.EndsAt) && c.closedAt == nil:
		return PhaseActive
	}
	return PhaseFinished
}

func questionsOf(f map[string]any) []Question {
	var out []Question
	for n := 1; n <= MaxQuestions; n++ {
		p := fmt.Sprintf("q%d_", n)
		text := strings.TrimSpace(str(f[p+"text"]))
		if text == "" {
			break
		}
		var opts []string
		for _, l := range strings.Split(str(f[p+"options"]), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				opts = append(opts, l)
			}
		}
		out = append(out, Question{Number: n, Text: text, Options: opts, Correct: str(f[p+"correct"]), Explanation: str(f[p+"explanation"])})
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Filter narrows a list.
type Filter struct {
	Phase      string // PhaseActive, PhaseUpcoming, PhaseFinished; "" for all
	Specialty  string
	Difficulty string
}

// List returns the published challenges of f with userID's progress:
// active by closest end, upcoming by start, finished newest first.
func (s *Service) List(ctx context.Context, userID string, f Filter) ([]Challenge, error) {
	now := s.now()
	where := []string{"l.published"}
	args := []any{userID, now}
	switch f.Phase {
	case "":
		where = append(where, "$2::timestamptz IS NOT NULL")
	case PhaseUpcoming:
		where = append(where, "l.starts_at > $2")
	case PhaseActive:
		where = append(where, "l.starts_at <= $2 AND l.ends_at > $2 AND l.closed_at IS NULL")
	case PhaseFinished:
		where = append(where, "(l.ends_at <= $2 OR l.closed_at IS NOT NULL)")
	default:
		return nil, core.Invalid(MsgBadPhase, map[string]string{"fase": MsgBadPhase})
	}
	if f.Specialty != "" {
		args = append(args, f.Specialty)
		where = append(where, fmt.Sprintf("l.specialty = $%d", len(args)))
	}
	if f.Difficulty != "" {
		args = append(args, f.Difficulty)
		where = append(where, fmt.Sprintf("l.difficulty = $%d", len(args)))
	}
	order := "l.ends_at"
	switch f.Phase {
	case PhaseUpcoming:
		order = "l.starts_at"
	case PhaseFinished, "":
		order = "l.ends_at DESC"
	}
	rows, err := s.pool.Query(ctx, `SELECT `+listColumns+` FROM challenge_listings l
		LEFT JOIN challenge_participations p ON p.challenge_id = l.item_id AND p.user_id = nullif($1::text, '')::uuid
		WHERE `+strings.Join(where, " AND ")+` ORDER BY `+order+`, l.title LIMIT 200`, args...)
	if err != nil {
		return nil, fmt.Errorf("list challenges: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Challenge, error) { return s.scan(r) })
	if err != nil {
		return nil, fmt.Errorf("list challenges: %w", err)
	}
	for i := range list {
		if list[i].Me != nil {
			if err := s.fillProgress(ctx, &list[i], userID); err != nil {
				return nil, err
			}
		}
	}
	return list, nil
}

// progress counts what userID did for measured challenge c between its
// start and until, capped at its end: lessons completed, or answers
// accepted.
func (s *Service) progress(ctx context.Context, c Challenge, userID string, until time.Time) (int, error) {
	if until.After(c.EndsAt) {
		until = c.EndsAt
	}
	if !until.After(c.StartsAt) {
		return 0, nil
	}
	var n int
	var err error
	switch {
	case c.Kind == KindStudy && s.lessons != nil:
		n, err = s.lessons.CompletedLessons(ctx, userID, c.StartsAt, until)
	case c.Kind == KindCommunity && s.answers != nil:
		n, err = s.answers.AcceptedAnswers(ctx, userID, c.StartsAt, until)
	}
	if err != nil {
		return 0, fmt.Errorf("challenge progress: %w", err)
	}
	return n, nil
}

// fillProgress sets a measured challenge's Done for userID: what they did
// since the start, up to now or the end.
func (s *Service) fillProgress(ctx context.Context, c *Challenge, userID string) error {
	if !measured(c.Kind) || userID == "" || c.Phase == PhaseUpcoming {
		return nil
	}
	if c.Me != nil && c.Me.Status == StatusSubmitted {
		done := c.Me.Correct
		c.Done = &done
		return nil
	}
	n, err := s.progress(ctx, *c, userID, s.now())
	if err != nil {
		return err
	}
	c.Done = &n
	return nil
}

func (s *Service) load(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, userID, idOrSlug string) (Challenge, error) {
	by := "l.slug = $2"
	if looksLikeUUID(idOrSlug) {
		by = "l.item_id = $2::uuid"
	}
	c, err := s.scan(q.QueryRow(ctx, `SELECT `+listColumns+` FROM challenge_listings l
		LEFT JOIN challenge_participations p ON p.challenge_id = l.item_id AND p.user_id = nullif($1::text, '')::uuid
		WHERE `+by+` AND l.published`, userID, idOrSlug))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("read challenge: %w", err)
	}
	return c, nil
}

func looksLikeUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", r):
			return false
		}
	}
	return true
}

// access is a member's plan as far as challenges care.
type access struct{ paid, open bool }

// plan reads userID's plan before a transaction starts (the subscription
// service reads through the pool: inside a transaction that would hold two
// connections per request).
func (s *Service) plan(ctx context.Context, userID string) (access, error) {
	paid, open, err := s.premium(ctx, userID)
	return access{paid: paid, open: open}, err
}

// premium reports whether userID may open premium-only challenges: a paid
// plan or the Premium trial.
func (s *Service) premium(ctx context.Context, userID string) (paid, open bool, err error) {
	if s.subs == nil {
		return false, false, nil
	}
	v, err := s.subs.View(ctx, userID)
	if err != nil {
		return false, false, fmt.Errorf("subscription: %w", err)
	}
	return v.IsPremium, v.IsPremium || v.TrialActive, nil
}

// Get returns challenge idOrSlug's page for userID: the case and the
// questions once it started (hidden from a member without Premium when it
// is premium-only), the member's answers, and the expected answers and
// explanations once unlocked.
func (s *Service) Get(ctx context.Context, userID, idOrSlug string) (Challenge, error) {
	c, err := s.load(ctx, s.pool, userID, idOrSlug)
	if err != nil {
		return c, err
	}
	if c.PremiumOnly {
		_, open, err := s.premium(ctx, userID)
		if err != nil {
			return c, err
		}
		if !open {
			c.Access = AccessPremium
			return c, nil
		}
	}
	if c.Phase == PhaseUpcoming {
		return c, nil
	}
	s.fillPage(&c)
	if err := s.fillProgress(ctx, &c, userID); err != nil {
		return c, err
	}
	return c, nil
}

// fillPage adds the case and the questions; the answers and explanations
// only when unlocked.
func (s *Service) fillPage(c *Challenge) {
	f := c.fields
	c.History, c.ExamFindings = str(f["history"]), str(f["exam_findings"])
	c.Images = nil
	for _, k := range []string{"image_1", "image_2", "image_3"} {
		if v := strings.TrimSpace(str(f[k])); v != "" {
			c.Images = append(c.Images, v)
		}
	}
	c.Unlocked = c.Phase == PhaseFinished || (c.Me != nil && c.Me.Status == StatusSubmitted)
	c.Questions = questionsOf(f)
	if c.Unlocked {
		c.Explanation = str(f["explanation"])
		return
	}
	for i := range c.Questions {
		c.Questions[i].Correct, c.Questions[i].Explanation = "", ""
	}
}

// checkAnswers validates answers against c's questions: keys are question
// numbers, values letters of their alternatives ("" removes an answer).
func checkAnswers(c Challenge, answers map[string]string) error {
	qs := questionsOf(c.fields)
	for k, v := range answers {
		n, err := strconv.Atoi(k)
		if err != nil || n < 1 || n > len(qs) {
			return core.Invalid(MsgBadAnswers, map[string]string{"answers": MsgBadQuestion})
		}
		if v == "" {
			continue
		}
		if i := strings.Index(letters, v); len(v) != 1 || i < 0 || i >= len(qs[n-1].Options) {
			return core.Invalid(MsgBadAnswers, map[string]string{"answers." + k: MsgBadLetter})
		}
	}
	return nil
}

func refuse(access, msg string) error {
	return &core.Error{Code: core.EFORBIDDEN, Message: msg, Fields: map[string]string{"access": access}}
}

// open checks that c takes answers now.
func open(c Challenge) error {
	switch c.Phase {
	case PhaseUpcoming:
		return core.Errorf(core.ECONFLICT, MsgNotStarted)
	case PhaseFinished:
		return core.Errorf(core.ECONFLICT, MsgClosed)
	}
	return nil
}

// participate returns userID's participation row of c inside tx, locked,
// creating it when absent: the start counts in the trial limit of a member
// without a paid plan. One member's starts are decided one at a time (the
// limit and the row are one decision).
func (s *Service) participate(ctx context.Context, tx pgx.Tx, c Challenge, userID string, plan access) (Challenge, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('challenge-start:' || $1::text, 0))`, userID); err != nil {
		return c, err
	}
	// Share-lock the listing: the end timer's Close waits for answers in
	// flight, and answers arriving after it see the challenge closed.
	if _, err := tx.Exec(ctx, `SELECT 1 FROM challenge_listings WHERE item_id = $1 FOR SHARE`, c.ID); err != nil {
		return c, err
	}
	cur, err := s.load(ctx, tx, userID, c.ID)
	if err != nil {
		return c, err
	}
	if cur.Me == nil {
		if err := open(cur); err != nil {
			return c, err
		}
	}
	if cur.Me != nil {
		// Lock the row: submissions of one member are serialised.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM challenge_participations WHERE challenge_id = $1 AND user_id = $2 FOR UPDATE`, c.ID, userID); err != nil {
			return c, err
		}
		return s.load(ctx, tx, userID, c.ID)
	}
	if cur.PremiumOnly && !plan.open {
		return c, refuse(AccessPremium, MsgPremiumOnly)
	}
	counted := false
	if !plan.paid && s.subs != nil {
		lim, err := s.subs.RecordUsageTx(ctx, tx, userID, LimitType)
		if core.ErrorCode(err) == core.EFORBIDDEN {
			return c, refuse(AccessTrialLimit, sdk.LimitReason(LimitType, lim.Limit))
		}
		if err != nil {
			return c, err
		}
		counted = true
	}
	if _, err := tx.Exec(ctx, `INSERT INTO challenge_participations (challenge_id, user_id, started_at, updated_at, counted_in_limit)
		VALUES ($1, $2, $3, $3, $4)`, c.ID, userID, s.now(), counted); err != nil {
		return c, fmt.Errorf("start challenge: %w", err)
	}
	return s.load(ctx, tx, userID, c.ID)
}

func merge(old, change map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range old {
		out[k] = v
	}
	for k, v := range change {
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// Save stores userID's answers to challenge idOrSlug as they go (the first
// save starts the participation and counts in the trial limit); it returns
// the participation.
func (s *Service) Save(ctx context.Context, userID, idOrSlug string, answers map[string]string) (Participation, error) {
	if userID == "" {
		return Participation{}, core.NotSignedIn()
	}
	c, err := s.load(ctx, s.pool, userID, idOrSlug)
	if err != nil {
		return Participation{}, err
	}
	if err := open(c); err != nil {
		return Participation{}, err
	}
	if err := checkAnswers(c, answers); err != nil {
		return Participation{}, err
	}
	plan, err := s.plan(ctx, userID)
	if err != nil {
		return Participation{}, err
	}
	var out Participation
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		cur, err := s.participate(ctx, tx, c, userID, plan)
		if err != nil {
			return err
		}
		if cur.Me.Status != StatusInProgress {
			if cur.Me.Status == StatusSubmitted {
				return core.Errorf(core.ECONFLICT, MsgAlreadySent)
			}
			return core.Errorf(core.ECONFLICT, MsgClosed)
		}
		if err := open(cur); err != nil {
			return err
		}
		all := merge(cur.Me.Answers, answers)
		raw, _ := json.Marshal(all)
		if _, err := tx.Exec(ctx, `UPDATE challenge_participations SET answers = $3, updated_at = $4 WHERE challenge_id = $1 AND user_id = $2`,
			c.ID, userID, raw, s.now()); err != nil {
			return fmt.Errorf("save answers: %w", err)
		}
		out = *cur.Me
		out.Answers, out.Answered = all, len(all)
		return nil
	})
	return out, err
}

// Result is a submission's outcome: the challenge's page, unlocked.
type Result struct {
	Challenge Challenge `json:"challenge"`
	// AlreadySubmitted: an earlier submission stands; nothing changed.
	AlreadySubmitted bool `json:"already_submitted"`
}

// Submit sends userID's answers to challenge idOrSlug once: answers given
// here are merged into the saved ones, every question must be answered,
// the score is computed here and the challenge's points, in proportion to
// the right answers, are credited exactly once (ledger kind challenge, key
// KeyOf) in the same transaction. A repeated submit returns the first
// result.
func (s *Service) Submit(ctx context.Context, userID, idOrSlug string, answers map[string]string) (Result, error) {
	if userID == "" {
		return Result{}, core.NotSignedIn()
	}
	c, err := s.load(ctx, s.pool, userID, idOrSlug)
	if err != nil {
		return Result{}, err
	}
	if c.Me != nil && c.Me.Status == StatusSubmitted {
		s.fillPage(&c)
		if err := s.fillProgress(ctx, &c, userID); err != nil {
			return Result{}, err
		}
		return Result{Challenge: c, AlreadySubmitted: true}, nil
	}
	if err := open(c); err != nil {
		return Result{}, err
	}
	if err := checkAnswers(c, answers); err != nil {
		return Result{}, err
	}
	plan, err := s.plan(ctx, userID)
	if err != nil {
		return Result{}, err
	}
	// A measured challenge's progress is counted before the transaction
	// (another package's reads, through its pool).
	done := 0
	if measured(c.Kind) {
		if done, err = s.progress(ctx, c, userID, s.now()); err != nil {
			return Result{}, err
		}
		if done < c.Goal {
			msg := MsgGoalNotMet
			if c.Kind == KindCommunity {
				msg = MsgAnswersNotMet
			}
			return Result{}, core.Errorf(core.ECONFLICT, msg, c.Goal, done)
		}
	}
	var res Result
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		cur, err := s.participate(ctx, tx, c, userID, plan)
		if err != nil {
			return err
		}
		switch cur.Me.Status {
		case StatusSubmitted:
			res.AlreadySubmitted = true
			return nil
		case StatusClosed:
			return core.Errorf(core.ECONFLICT, MsgClosed)
		}
		if cur.Phase != PhaseActive {
			return core.Errorf(core.ECONFLICT, MsgClosed)
		}
		all := merge(cur.Me.Answers, answers)
		if measured(cur.Kind) {
			return s.completeMeasuredTx(ctx, tx, cur, userID, done, s.now())
		}
		qs := questionsOf(cur.fields)
		correct := 0
		for _, q := range qs {
			a, ok := all[strconv.Itoa(q.Number)]
			if !ok {
				return core.Invalid(MsgAnswerAll, map[string]string{"answers": MsgAnswerAll})
			}
			if a == q.Correct {
				correct++
			}
		}
		earned := 0
		if len(qs) > 0 {
			earned = int(math.Round(float64(cur.Points) * float64(correct) / float64(len(qs))))
		}
		now := s.now()
		raw, _ := json.Marshal(all)
		if _, err := tx.Exec(ctx, `UPDATE challenge_participations SET answers = $3, status = 'submitted', submitted_at = $4, updated_at = $4,
			correct = $5, total = $6, points_awarded = $7 WHERE challenge_id = $1 AND user_id = $2`,
			c.ID, userID, raw, now, correct, len(qs), earned); err != nil {
			return fmt.Errorf("submit answers: %w", err)
		}
		if earned > 0 {
			if _, _, err := points.AwardTx(ctx, tx, userID, earned, points.KindChallenge, KeyOf(c.ID, userID),
				map[string]any{"challenge_id": c.ID, "challenge": c.Title, "correct": correct, "total": len(qs)}); err != nil {
				return err
			}
		}
		return s.awardBadgesTx(ctx, tx, userID, now)
	})
	if err != nil {
		return Result{}, err
	}
	if res.Challenge, err = s.load(ctx, s.pool, userID, c.ID); err != nil {
		return Result{}, err
	}
	s.fillPage(&res.Challenge)
	if err := s.fillProgress(ctx, &res.Challenge, userID); err != nil {
		return Result{}, err
	}
	return res, nil
}

// completeMeasuredTx completes userID's measured challenge c, still in
// progress, with done (at least the goal): all of c's points, credited once
// (ledger key KeyOf), and the streak badges. It does nothing when the
// participation was already submitted or closed.
func (s *Service) completeMeasuredTx(ctx context.Context, tx pgx.Tx, c Challenge, userID string, done int, at time.Time) error {
	tag, err := tx.Exec(ctx, `UPDATE challenge_participations SET status = 'submitted', submitted_at = $3, updated_at = $3,
		correct = $4, total = $5, points_awarded = $6 WHERE challenge_id = $1 AND user_id = $2 AND status = 'in_progress'`,
		c.ID, userID, at, done, c.Goal, c.Points)
	if err != nil {
		return fmt.Errorf("complete challenge: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	if c.Points > 0 {
		if _, _, err := points.AwardTx(ctx, tx, userID, c.Points, points.KindChallenge, KeyOf(c.ID, userID),
			map[string]any{"challenge_id": c.ID, "challenge": c.Title, "done": done, "goal": c.Goal}); err != nil {
			return err
		}
	}
	return s.awardBadgesTx(ctx, tx, userID, at)
}

// Close closes challenge itemID at its end: drafts still unsent are closed
// without points and the challenge stops taking answers; a measured
// challenge's participants who reached the goal within the period are
// completed with its points instead. It returns how many drafts it closed, and the later
// end the database holds when the challenge was moved (nothing is closed
// then).
func (s *Service) Close(ctx context.Context, itemID string) (int, *time.Time, error) {
	var c Challenge
	var published bool
	err := s.pool.QueryRow(ctx, `SELECT item_id::text, title, kind, points, goal, starts_at, ends_at, published
		FROM challenge_listings WHERE item_id = $1`, itemID).
		Scan(&c.ID, &c.Title, &c.Kind, &c.Points, &c.Goal, &c.StartsAt, &c.EndsAt, &published)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read challenge end: %w", err)
	}
	if c.EndsAt.After(s.now()) {
		return 0, &c.EndsAt, nil
	}
	// Measured challenges: who reached the goal by the end (counted before
	// the transaction, in the other packages' own reads).
	reached := map[string]int{}
	if measured(c.Kind) && published && c.Goal > 0 {
		rows, err := s.pool.Query(ctx, `SELECT user_id::text FROM challenge_participations WHERE challenge_id = $1 AND status = 'in_progress'`, itemID)
		if err != nil {
			return 0, nil, fmt.Errorf("challenge participants: %w", err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return 0, nil, fmt.Errorf("challenge participants: %w", err)
		}
		for _, id := range ids {
			n, err := s.progress(ctx, c, id, c.EndsAt)
			if err != nil {
				return 0, nil, err
			}
			if n >= c.Goal {
				reached[id] = n
			}
		}
	}
	var closed int64
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Lock the listing: a submit that read the challenge as open waits
		// here and then sees it closed.
		now := s.now()
		if _, err := tx.Exec(ctx, `UPDATE challenge_listings SET closed_at = coalesce(closed_at, $2) WHERE item_id = $1`, itemID, now); err != nil {
			return err
		}
		for id, n := range reached {
			if err := s.completeMeasuredTx(ctx, tx, c, id, n, now); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `UPDATE challenge_participations SET status = 'closed', updated_at = $2
			WHERE challenge_id = $1 AND status = 'in_progress'`, itemID, now)
		closed = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, nil, fmt.Errorf("close challenge: %w", err)
	}
	return int(closed), nil, nil
}
