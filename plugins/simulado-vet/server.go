package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/simulado-vet/bank"
)

// Rules of the tools, stated to members on the pages.
const (
	// SecondsPerQuestion is a simulado's time per question (10 questions:
	// 15 minutes), counted by the server from the start.
	SecondsPerQuestion = 90
	// QuizSize is a Quiz de Área round.
	QuizSize = 10
	// CoinsPerCorrect is what each correct answer earns, credited once per
	// attempt when it is submitted.
	CoinsPerCorrect = 2
	// DailyCoinsCap bounds what one member earns here per day (Brasília).
	DailyCoinsCap = 60
	// LimitName is the trial limit of simulados a member without a paid
	// plan may start (quiz rounds are free).
	LimitName = "simulados"
	// DefaultTrialSimulados is TRIAL_LIMITS' default for simulados.
	DefaultTrialSimulados = 3
)

// Sizes a simulado may have.
var Sizes = []int{10, 30, 60}

// brasilia is the members' day for the daily cap (no daylight saving).
var brasilia = time.FixedZone("BRT", -3*60*60)

// RuleText is the VetCoins rule as the pages state it.
var RuleText = fmt.Sprintf("Cada resposta certa vale %d VetCoins, creditados uma vez por simulado ou rodada, ao finalizar. Limite de %d VetCoins por dia nestas ferramentas.",
	CoinsPerCorrect, DailyCoinsCap)

// Limit is the host's answer to a trial-limit check.
type Limit struct {
	Allowed bool
	Limit   int // -1: unlimited
	Used    int
	Reason  string // pt-BR, when refused
}

// limiter checks a member's trial limit (the host's CheckLimit).
type limiter interface {
	CheckLimit(ctx context.Context, name string, used int) (Limit, error)
}

// hostLimiter is the host's check of the trial limit (TRIAL_LIMITS
// simulados): premium members are unlimited, everyone else gets the
// configured number, with the host's pt-BR reason when refused.
type hostLimiter struct{ host *sdk.Host }

func (h hostLimiter) CheckLimit(ctx context.Context, name string, used int) (Limit, error) {
	l, err := h.host.CheckLimit(ctx, name, used)
	if err != nil {
		return Limit{}, err
	}
	return Limit{Allowed: l.Allowed, Limit: l.Limit, Used: l.Used, Reason: l.Reason}, nil
}

type server struct {
	host  *sdk.Host
	limit limiter
	now   func() time.Time
}

func newServer(host *sdk.Host, l limiter, now func() time.Time) *server {
	return &server{host: host, limit: l, now: now}
}

func (s *server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /overview", s.overview)
	mux.HandleFunc("POST /simulados", s.startSimulado)
	mux.HandleFunc("GET /simulados", s.history)
	mux.HandleFunc("GET /simulados/{id}", s.get("simulado"))
	mux.HandleFunc("PUT /simulados/{id}/answers/{pos}", s.answerSimulado)
	mux.HandleFunc("POST /simulados/{id}/submit", s.submit("simulado"))
	mux.HandleFunc("POST /quiz", s.startQuiz)
	mux.HandleFunc("GET /quiz/{id}", s.get("quiz"))
	mux.HandleFunc("POST /quiz/{id}/answers/{pos}", s.answerQuiz)
	mux.HandleFunc("POST /quiz/{id}/submit", s.submit("quiz"))
	return mux
}

// Messages members read.
const (
	msgNotFound     = "Simulado não encontrado."
	msgQuizNotFound = "Rodada não encontrada."
	msgHost         = "Não foi possível acessar o banco de questões agora. Tente novamente."
	msgClosed       = "Este simulado já foi finalizado."
	msgTimeUp       = "O tempo acabou: o simulado foi finalizado com as respostas salvas."
	msgAnswered     = "Esta questão já foi respondida."
	msgOpenExists   = "Você já tem um simulado em andamento. Continue ou finalize-o antes de começar outro."
	msgBusy         = "Outro simulado acabou de ser iniciado. Atualize a página."
)

type areaInfo struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

// overview answers what the start pages need: areas with their published
// question counts, sizes, the rules, the trial limit and any open attempt.
func (s *server) overview(w http.ResponseWriter, r *http.Request) {
	ctx, user := r.Context(), sdk.UserFrom(r.Context()).ID
	var counts []struct {
		Area  string `json:"area"`
		Count int    `json:"count"`
	}
	if err := s.host.Query(ctx, &counts, `SELECT area, count(*)::int AS count FROM questions WHERE active GROUP BY area`); err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	by := map[string]int{}
	for _, c := range counts {
		by[c.Area] = c.Count
	}
	areas := make([]areaInfo, 0, len(bank.Areas))
	for _, a := range bank.Areas {
		areas = append(areas, areaInfo{a.Value, a.Label, by[a.Value]})
	}
	used, err := s.used(ctx, user)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	lim, err := s.limit.CheckLimit(ctx, LimitName, used)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	open := map[string]any{}
	for _, mode := range []string{"simulado", "quiz"} {
		var rows []struct {
			ID string `json:"id"`
		}
		if err := s.host.Query(ctx, &rows, `SELECT id FROM attempts WHERE user_id = $1 AND mode = $2 AND status = 'open'`, user, mode); err != nil {
			sdk.WriteHostError(w, err, msgHost)
			return
		}
		if len(rows) > 0 {
			open[mode] = rows[0].ID
		}
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{
		"areas": areas, "sizes": Sizes, "seconds_per_question": SecondsPerQuestion, "quiz_size": QuizSize,
		"coins_per_correct": CoinsPerCorrect, "daily_cap": DailyCoinsCap, "rule": RuleText,
		"limit": map[string]any{"limit": lim.Limit, "used": used, "allowed": lim.Allowed, "reason": lim.Reason},
		"open":  open,
	})
}

// used counts the simulados the member has started.
func (s *server) used(ctx context.Context, user string) (int, error) {
	var rows []struct {
		N int `json:"n"`
	}
	if err := s.host.Query(ctx, &rows, `SELECT count(*)::int AS n FROM attempts WHERE user_id = $1 AND mode = 'simulado'`, user); err != nil {
		return 0, err
	}
	return rows[0].N, nil
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (s *server) startSimulado(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Areas []string `json:"areas"`
		Size  int      `json:"size"`
	}
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	problems := map[string]string{}
	if len(in.Areas) == 0 || len(in.Areas) > len(bank.Areas) {
		problems["areas"] = "Escolha pelo menos uma área."
	}
	areas := []string{}
	for _, a := range in.Areas {
		if bank.AreaLabel(a) == "" {
			problems["areas"] = "Escolha áreas da lista."
			break
		}
		if !slices.Contains(areas, a) {
			areas = append(areas, a)
		}
	}
	if !slices.Contains(Sizes, in.Size) {
		problems["size"] = "Escolha 10, 30 ou 60 questões."
	}
	if len(problems) > 0 {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Verifique os campos destacados.", problems)
		return
	}
	ctx, user := r.Context(), sdk.UserFrom(r.Context()).ID
	if s.openAttempt(w, ctx, user, "simulado") {
		return
	}
	// The limit is checked against the count the new attempt will take its
	// number from; two starts racing for the same number cannot both insert
	// (unique user, mode and number), so the limit holds under concurrency.
	for range 3 {
		used, err := s.used(ctx, user)
		if err != nil {
			sdk.WriteHostError(w, err, msgHost)
			return
		}
		lim, err := s.limit.CheckLimit(ctx, LimitName, used)
		if err != nil {
			sdk.WriteHostError(w, err, msgHost)
			return
		}
		if !lim.Allowed {
			sdk.WriteJSON(w, http.StatusForbidden, map[string]any{"error": map[string]any{
				"code": "forbidden", "message": lim.Reason, "upgrade": true, "limit": lim.Limit, "used": lim.Used}, "upgrade": true})
			return
		}
		id, ok := s.create(w, r, user, "simulado", areas, in.Size, used+1)
		if !ok {
			return
		}
		if id != "" {
			s.respond(w, r, "simulado", id, http.StatusCreated)
			return
		}
		if s.openAttempt(w, ctx, user, "simulado") {
			return
		}
	}
	sdk.WriteError(w, http.StatusConflict, msgBusy, nil)
}

// openAttempt answers 409 with the open attempt's id when there is one.
func (s *server) openAttempt(w http.ResponseWriter, ctx context.Context, user, mode string) bool {
	var rows []struct {
		ID string `json:"id"`
	}
	if err := s.host.Query(ctx, &rows, `SELECT id FROM attempts WHERE user_id = $1 AND mode = $2 AND status = 'open'`, user, mode); err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return true
	}
	if len(rows) == 0 {
		return false
	}
	sdk.WriteJSON(w, http.StatusConflict, map[string]any{"error": map[string]any{"code": "conflict", "message": msgOpenExists}, "open_id": rows[0].ID})
	return true
}

// create draws size random questions of areas into a new attempt, in one
// statement; id is "" when another attempt took the number or an open slot.
func (s *server) create(w http.ResponseWriter, r *http.Request, user, mode string, areas []string, size, seq int) (string, bool) {
	ctx := r.Context()
	var avail []struct {
		N int `json:"n"`
	}
	if err := s.host.Query(ctx, &avail, `SELECT count(*)::int AS n FROM questions WHERE active AND area IN (SELECT jsonb_array_elements_text($1::jsonb))`, jsonString(areas)); err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return "", false
	}
	if avail[0].N < size {
		sdk.WriteError(w, http.StatusUnprocessableEntity, fmt.Sprintf("Há só %d questões publicadas nas áreas escolhidas. Escolha mais áreas ou menos questões.", avail[0].N),
			map[string]string{"areas": "Poucas questões nestas áreas."})
		return "", false
	}
	now := s.now().UTC()
	var deadline any
	if mode == "simulado" {
		deadline = now.Add(time.Duration(size*SecondsPerQuestion) * time.Second).Format(time.RFC3339Nano)
	}
	id := newID()
	var rows []struct {
		ID string `json:"attempt_id"`
	}
	err := s.host.Query(ctx, &rows, `WITH a AS (
			INSERT INTO attempts (id, user_id, mode, seq, areas, size, started_at, deadline)
			VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::timestamptz, $8::timestamptz)
			ON CONFLICT DO NOTHING RETURNING id),
		q AS (SELECT id, area, correct FROM questions WHERE active AND area IN (SELECT jsonb_array_elements_text($5::jsonb)) ORDER BY random() LIMIT $6)
		INSERT INTO attempt_questions (attempt_id, pos, question_id, area, correct)
		SELECT a.id, row_number() OVER (), q.id, q.area, q.correct FROM a, q
		RETURNING attempt_id`,
		id, user, mode, seq, jsonString(areas), size, now.Format(time.RFC3339Nano), deadline)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return "", false
	}
	if len(rows) == 0 {
		return "", true
	}
	return id, true
}

func (s *server) startQuiz(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Area string `json:"area"`
	}
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	if bank.AreaLabel(in.Area) == "" {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Verifique os campos destacados.", map[string]string{"area": "Escolha uma área da lista."})
		return
	}
	ctx, user := r.Context(), sdk.UserFrom(r.Context()).ID
	// A new round replaces an unfinished one: quiz rounds are quick and free.
	if _, err := s.host.Exec(ctx, `DELETE FROM attempts WHERE user_id = $1 AND mode = 'quiz' AND status = 'open'`, user); err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	for range 3 {
		var rows []struct {
			N int `json:"n"`
		}
		if err := s.host.Query(ctx, &rows, `SELECT coalesce(max(seq), 0)::int AS n FROM attempts WHERE user_id = $1 AND mode = 'quiz'`, user); err != nil {
			sdk.WriteHostError(w, err, msgHost)
			return
		}
		id, ok := s.create(w, r, user, "quiz", []string{in.Area}, QuizSize, rows[0].N+1)
		if !ok {
			return
		}
		if id != "" {
			s.respond(w, r, "quiz", id, http.StatusCreated)
			return
		}
	}
	sdk.WriteError(w, http.StatusConflict, msgBusy, nil)
}

// attemptRow is an attempt as stored.
type attemptRow struct {
	ID            string     `json:"id"`
	Mode          string     `json:"mode"`
	Areas         []string   `json:"areas"`
	Size          int        `json:"size"`
	Status        string     `json:"status"`
	StartedAt     time.Time  `json:"started_at"`
	Deadline      *time.Time `json:"deadline"`
	SubmittedAt   *time.Time `json:"submitted_at"`
	TimedOut      bool       `json:"timed_out"`
	Score         *int       `json:"score"`
	Coins         *int       `json:"coins"`
	CoinsCredited bool       `json:"coins_credited"`
}

const attemptColumns = `id, mode, areas, size, status, started_at, deadline, submitted_at, timed_out, score, coins, coins_credited`

// load returns the member's attempt of mode; found is false for anyone
// else's (the caller answers 404 either way).
func (s *server) load(ctx context.Context, user, mode, id string) (attemptRow, bool, error) {
	var rows []attemptRow
	if err := s.host.Query(ctx, &rows, `SELECT `+attemptColumns+` FROM attempts WHERE id = $1 AND user_id = $2 AND mode = $3`, id, user, mode); err != nil {
		return attemptRow{}, false, err
	}
	if len(rows) == 0 {
		return attemptRow{}, false, nil
	}
	return rows[0], true, nil
}

func notFound(w http.ResponseWriter, mode string) {
	if mode == "quiz" {
		sdk.WriteError(w, http.StatusNotFound, msgQuizNotFound, nil)
		return
	}
	sdk.WriteError(w, http.StatusNotFound, msgNotFound, nil)
}

// current loads the attempt and, when its deadline has passed while it was
// open, submits it first (the time-out is enforced by the server, whenever
// the attempt is next read).
func (s *server) current(w http.ResponseWriter, r *http.Request, mode string) (attemptRow, bool) {
	ctx, user := r.Context(), sdk.UserFrom(r.Context()).ID
	id := r.PathValue("id")
	if len(id) != 32 {
		notFound(w, mode)
		return attemptRow{}, false
	}
	a, found, err := s.load(ctx, user, mode, id)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return a, false
	}
	if !found {
		notFound(w, mode)
		return a, false
	}
	if a.Status == "open" && a.Deadline != nil && !s.now().Before(*a.Deadline) {
		if err := s.finish(ctx, user, mode, a.ID, true); err != nil {
			sdk.WriteHostError(w, err, msgHost)
			return a, false
		}
		if a, _, err = s.load(ctx, user, mode, id); err != nil {
			sdk.WriteHostError(w, err, msgHost)
			return a, false
		}
	}
	if a.Status == "submitted" && a.Coins != nil && *a.Coins > 0 && !a.CoinsCredited {
		s.credit(ctx, a)
		a, _, _ = s.load(ctx, user, mode, id)
	}
	return a, true
}

func (s *server) get(mode string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.current(w, r, mode); ok {
			s.respond(w, r, mode, r.PathValue("id"), http.StatusOK)
		}
	}
}

// finish submits an open attempt: only one caller moves it (the update's
// condition), that caller grants the VetCoins within the daily cap and
// credits them; later callers find it submitted and change nothing.
func (s *server) finish(ctx context.Context, user, mode, id string, timedOut bool) error {
	now := s.now().UTC()
	var won []struct {
		Score int `json:"score"`
	}
	err := s.host.Query(ctx, &won, `UPDATE attempts SET status = 'submitted', submitted_at = $3::timestamptz, timed_out = $4,
			score = (SELECT count(*) FROM attempt_questions WHERE attempt_id = $1 AND answer = correct)
		WHERE id = $1 AND user_id = $2 AND status = 'open' RETURNING score`, id, user, now.Format(time.RFC3339Nano), timedOut)
	if err != nil {
		return err
	}
	if len(won) == 0 {
		return nil
	}
	day := now.In(brasilia).Format(time.DateOnly)
	if _, err := s.host.Exec(ctx, `INSERT INTO daily_coins (user_id, day) VALUES ($1, $2::date) ON CONFLICT DO NOTHING`, user, day); err != nil {
		return err
	}
	// The grant is computed and added in one row update, so two attempts
	// finishing at once cannot both pass the cap.
	var granted []struct {
		Coins int `json:"coins"`
	}
	err = s.host.Query(ctx, &granted, `WITH g AS (
			UPDATE daily_coins SET last_grant = LEAST($3::int, $4::int - coins), coins = coins + LEAST($3::int, $4::int - coins)
			WHERE user_id = $1 AND day = $2::date
			  AND EXISTS (SELECT 1 FROM attempts WHERE id = $5 AND coins IS NULL)
			RETURNING last_grant)
		UPDATE attempts SET coins = GREATEST((SELECT last_grant FROM g), 0) WHERE id = $5 AND coins IS NULL RETURNING coins`,
		user, day, won[0].Score*CoinsPerCorrect, DailyCoinsCap, id)
	if err != nil {
		return err
	}
	if len(granted) == 1 && granted[0].Coins > 0 {
		s.credit(ctx, attemptRow{ID: id, Mode: mode, Coins: &granted[0].Coins})
	}
	return nil
}

// credit asks the host for the attempt's VetCoins under its idempotency
// key (a retry, from this call or a later read, credits nothing more).
func (s *server) credit(ctx context.Context, a attemptRow) {
	reason := "Simulado Vet: respostas certas"
	if a.Mode == "quiz" {
		reason = "Quiz de Área: respostas certas"
	}
	if _, err := s.host.AwardVetCoins(ctx, int64(*a.Coins), reason, "attempt:"+a.ID, sdk.AwardKind(sdk.VetCoinsChallenge)); err != nil {
		s.host.Logger().Warn("vetcoins not credited yet", "attempt", a.ID, "err", err)
		return
	}
	if _, err := s.host.Exec(ctx, `UPDATE attempts SET coins_credited = true WHERE id = $1`, a.ID); err != nil {
		s.host.Logger().Warn("vetcoins credited, flag not saved", "attempt", a.ID, "err", err)
	}
}

func (s *server) submit(mode string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, ok := s.current(w, r, mode)
		if !ok {
			return
		}
		if a.Status == "open" {
			if err := s.finish(r.Context(), sdk.UserFrom(r.Context()).ID, mode, a.ID, false); err != nil {
				sdk.WriteHostError(w, err, msgHost)
				return
			}
		}
		s.respond(w, r, mode, a.ID, http.StatusOK)
	}
}

func position(w http.ResponseWriter, r *http.Request, size int) (int, bool) {
	pos, err := strconv.Atoi(r.PathValue("pos"))
	if err != nil || pos < 1 || pos > size {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Questão inexistente neste simulado.", nil)
		return 0, false
	}
	return pos, true
}

// answerSimulado saves an answer and the review mark of one question as
// the member goes (nothing is lost on a reload); the answer may change
// until the simulado is submitted or its time runs out.
func (s *server) answerSimulado(w http.ResponseWriter, r *http.Request) {
	a, ok := s.current(w, r, "simulado")
	if !ok {
		return
	}
	pos, ok := position(w, r, a.Size)
	if !ok {
		return
	}
	var in struct {
		Answer *int  `json:"answer"`
		Marked *bool `json:"marked"`
	}
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	if in.Answer != nil && (*in.Answer < 0 || *in.Answer > 4) {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Verifique os campos destacados.", map[string]string{"answer": "Escolha uma das alternativas."})
		return
	}
	if a.Status != "open" {
		msg := msgClosed
		if a.TimedOut {
			msg = msgTimeUp
		}
		sdk.WriteError(w, http.StatusConflict, msg, nil)
		return
	}
	n, err := s.host.Exec(r.Context(), `UPDATE attempt_questions q SET
			answer = CASE WHEN $3::boolean THEN $4::int ELSE q.answer END,
			answered_at = CASE WHEN $3::boolean THEN $5::timestamptz ELSE q.answered_at END,
			marked = coalesce($6::boolean, q.marked)
		FROM attempts a
		WHERE q.attempt_id = $1 AND q.pos = $2 AND a.id = q.attempt_id AND a.status = 'open'
		  AND ($3::boolean = false OR $4::int IS NULL OR $4::int < jsonb_array_length((SELECT options FROM questions WHERE id = q.question_id)))`,
		a.ID, pos, in.Answer != nil, in.Answer, s.now().UTC().Format(time.RFC3339Nano), in.Marked)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	if n == 0 {
		sdk.WriteError(w, http.StatusConflict, "A resposta não foi salva: verifique a alternativa ou se o simulado já foi finalizado.", nil)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"saved": true, "pos": pos})
}

// answerQuiz records the one answer a quiz question takes and answers the
// correction at once; the last answer finishes the round.
func (s *server) answerQuiz(w http.ResponseWriter, r *http.Request) {
	a, ok := s.current(w, r, "quiz")
	if !ok {
		return
	}
	pos, ok := position(w, r, a.Size)
	if !ok {
		return
	}
	var in struct {
		Answer *int `json:"answer"`
	}
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	if in.Answer == nil || *in.Answer < 0 || *in.Answer > 4 {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Verifique os campos destacados.", map[string]string{"answer": "Escolha uma das alternativas."})
		return
	}
	if a.Status != "open" {
		sdk.WriteError(w, http.StatusConflict, "Esta rodada já foi finalizada.", nil)
		return
	}
	ctx := r.Context()
	n, err := s.host.Exec(ctx, `UPDATE attempt_questions q SET answer = $3, answered_at = $4::timestamptz
		WHERE q.attempt_id = $1 AND q.pos = $2 AND q.answer IS NULL
		  AND $3 < jsonb_array_length((SELECT options FROM questions WHERE id = q.question_id))`,
		a.ID, pos, *in.Answer, s.now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	if n == 0 {
		sdk.WriteError(w, http.StatusConflict, msgAnswered, nil)
		return
	}
	var left []struct {
		N int `json:"n"`
	}
	if err := s.host.Query(ctx, &left, `SELECT count(*)::int AS n FROM attempt_questions WHERE attempt_id = $1 AND answer IS NULL`, a.ID); err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	if left[0].N == 0 {
		if err := s.finish(ctx, sdk.UserFrom(ctx).ID, "quiz", a.ID, false); err != nil {
			sdk.WriteHostError(w, err, msgHost)
			return
		}
	}
	s.respond(w, r, "quiz", a.ID, http.StatusOK)
}
