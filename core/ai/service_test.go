package ai_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/ai"
	"github.com/vetclube/vetclube/core/ai/fakeoai"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

type fixture struct {
	pool  *pgxpool.Pool
	fake  *fakeoai.Server
	svc   *ai.Service
	clock *clock
	prem  map[string]bool
	mu    sync.Mutex
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func newFixture(t testing.TB, tune func(*ai.Options)) *fixture {
	t.Helper()
	f := &fixture{pool: pgtest.New(t), fake: fakeoai.New(0), prem: map[string]bool{}}
	base, stop, err := f.fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	// Tuesday 10:00 in São Paulo.
	f.clock = &clock{t: time.Date(2026, 11, 24, 13, 0, 0, 0, time.UTC)}
	o := ai.Options{
		BaseURL: base, Model: "gpt-test", TrialDaily: 5, PremiumDaily: 50, PremiumMonthlyTokens: 100000,
		Prices:  map[string]ai.Price{"gpt-test": {Input: 1, Output: 4}},
		Retries: 3, MaxBackoff: 50 * time.Millisecond, Now: f.clock.Now,
		Premium: func(_ context.Context, id string) (bool, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.prem[id], nil
		},
	}
	if tune != nil {
		tune(&o)
	}
	f.svc = ai.New(f.pool, o)
	return f
}

func (f *fixture) user(t testing.TB) string {
	t.Helper()
	var id string
	email := fmt.Sprintf("u%d@exemplo.com.br", time.Now().UnixNano())
	if err := f.pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.AcceptDisclaimer(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	return id
}

// publish puts a news item straight into the published snapshot.
func (f *fixture) publish(t *testing.T, slug, title, body string) string {
	t.Helper()
	ctx := context.Background()
	var id string
	err := f.pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, status, fields) VALUES ('noticias', $1, $2, 'publicado', jsonb_build_object('body', $3::text)) RETURNING id`,
		slug, title, body).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.pool.Exec(ctx, `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		VALUES ($1, 'noticias', $2, $3, '', jsonb_build_object('body', $4::text),
		setweight(to_tsvector('vetclube_pt', $3), 'A') || setweight(to_tsvector('vetclube_pt', $4), 'C'), 1, now(), now())`, id, slug, title, body)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (f *fixture) conv(t *testing.T, user string) string {
	t.Helper()
	c, err := f.svc.Create(context.Background(), user, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

type recorder struct {
	mu     sync.Mutex
	events []ai.Event
}

func (r *recorder) emit(ev ai.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	return nil
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Name)
	}
	return out
}

func (f *fixture) ask(t *testing.T, user, conv, q string) (ai.Answer, *recorder) {
	t.Helper()
	turn, err := f.svc.Begin(context.Background(), user, conv, ai.AskInput{Content: q})
	if err != nil {
		t.Fatalf("begin %q: %v", q, err)
	}
	rec := &recorder{}
	return f.svc.Stream(context.Background(), turn, rec.emit), rec
}

const vaccineBody = "A vacinação de filhotes de cães começa entre 6 e 8 semanas de idade, com a vacina polivalente (V8 ou V10) " +
	"repetida a cada 3 a 4 semanas até 16 semanas. A vacina antirrábica é aplicada a partir de 12 semanas. " +
	"O reforço anual mantém a proteção ao longo da vida do animal."

func TestAnswerCitesRetrievedPassagesAndRecordsUsage(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	item := f.publish(t, "protocolo-vacinal-filhotes", "Protocolo vacinal de filhotes", vaccineBody)
	f.publish(t, "doenca-renal-felina", "Doença renal crônica em gatos", "A doença renal crônica em gatos idosos cursa com poliúria, polidipsia e perda de peso; o estadiamento IRIS orienta o manejo.")
	conv := f.conv(t, u)

	a, rec := f.ask(t, u, conv, "Quando começa a vacinação de filhotes de cães?")
	if a.Status != "complete" {
		t.Fatalf("status %q, error %q", a.Status, a.Error)
	}
	if len(a.Sources) == 0 || a.Sources[0].ItemID != item || a.Sources[0].URL != "/noticias-veterinarias/protocolo-vacinal-filhotes" {
		t.Fatalf("sources: %+v", a.Sources)
	}
	if !strings.Contains(a.Content, "[1]") || !a.Sources[0].Cited {
		t.Fatalf("answer does not cite source 1: %q", a.Content)
	}
	if !strings.Contains(a.Content, "6 e 8 semanas") {
		t.Fatalf("answer not composed from the passage: %q", a.Content)
	}
	names := rec.names()
	if names[0] != "turn" || names[1] != "sources" || names[len(names)-1] != "done" {
		t.Fatalf("events: %v", names)
	}
	// The system prompt carried the numbered passage.
	reqs := f.fake.Requests()
	if len(reqs) != 1 || reqs[0].Model != "gpt-test" || !strings.Contains(reqs[0].Messages[0].Content, "[1] Protocolo vacinal de filhotes (/noticias-veterinarias/protocolo-vacinal-filhotes)") {
		t.Fatalf("request: %+v", reqs)
	}
	// Tokens come from the stream's usage chunk; the cost from the price.
	if a.PromptTokens == 0 || a.CompletionTokens == 0 {
		t.Fatalf("tokens not recorded: %+v", a.Message)
	}
	var pt, ct int
	var cost float64
	var model string
	if err := f.pool.QueryRow(context.Background(), `SELECT prompt_tokens, completion_tokens, cost_usd::float8, model FROM ai_messages WHERE id = $1`, a.ID).
		Scan(&pt, &ct, &cost, &model); err != nil {
		t.Fatal(err)
	}
	want := (float64(pt)*1 + float64(ct)*4) / 1e6
	if pt != a.PromptTokens || ct != a.CompletionTokens || model != "gpt-test" || fmt.Sprintf("%.8f", cost) != fmt.Sprintf("%.8f", want) {
		t.Fatalf("stored %d/%d %s %.8f, want %d/%d %.8f", pt, ct, model, cost, a.PromptTokens, a.CompletionTokens, want)
	}
	var tokens int64
	if err := f.pool.QueryRow(context.Background(), `SELECT tokens FROM ai_usage_daily WHERE user_id = $1`, u).Scan(&tokens); err != nil {
		t.Fatal(err)
	}
	if tokens != int64(pt+ct) {
		t.Fatalf("daily tokens %d, want %d", tokens, pt+ct)
	}
	// The conversation took its title from the first question.
	c, msgs, err := f.svc.Get(context.Background(), u, conv)
	if err != nil || c.Title != "Quando começa a vacinação de filhotes de cães?" || len(msgs) != 2 {
		t.Fatalf("conversation %+v %d %v", c, len(msgs), err)
	}
}

func TestNoPassageNoSources(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	conv := f.conv(t, u)
	a, _ := f.ask(t, u, conv, "Qual a capital da Mongólia?")
	if len(a.Sources) != 0 || strings.Contains(a.Content, "[1]") {
		t.Fatalf("sources without passages: %+v %q", a.Sources, a.Content)
	}
}

func TestOutOfRangeCitationsRemoved(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	f.publish(t, "protocolo-vacinal-filhotes", "Protocolo vacinal de filhotes", vaccineBody)
	conv := f.conv(t, u)
	f.fake.Push(fakeoai.Script{Chunks: []string{"A vacinação começa cedo [1]", ", segundo [7] e [1, 9]", " e [0]."}})
	a, _ := f.ask(t, u, conv, "vacinação de filhotes")
	if a.Content != "A vacinação começa cedo [1], segundo  e [1] e ." {
		t.Fatalf("content %q", a.Content)
	}
	for _, m := range citationNumbers(a.Content) {
		if m < 1 || m > len(a.Sources) {
			t.Fatalf("marker %d outside the %d sources", m, len(a.Sources))
		}
	}
}

func citationNumbers(s string) []int {
	var out []int
	for _, part := range strings.Split(s, "[")[1:] {
		var n int
		if _, err := fmt.Sscanf(part, "%d", &n); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func TestStopAbortsUpstreamAndSavesPartial(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	conv := f.conv(t, u)
	chunks := make([]string, 200)
	for i := range chunks {
		chunks[i] = fmt.Sprintf(" palavra%d", i)
	}
	f.fake.Push(fakeoai.Script{Chunks: chunks, ChunkDelay: 20 * time.Millisecond})
	turn, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Explique a fluidoterapia em cães desidratados"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	deltas := 0
	var stoppedAt time.Time
	done := make(chan ai.Answer, 1)
	go func() {
		done <- f.svc.Stream(ctx, turn, func(ev ai.Event) error {
			if ev.Name == "delta" {
				deltas++
				if deltas == 5 {
					stoppedAt = time.Now()
					stop() // 'Parar'
				}
			}
			return nil
		})
	}()
	select {
	case <-f.fake.Gone():
		if d := time.Since(stoppedAt); d > time.Second {
			t.Fatalf("upstream closed %v after Parar", d)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the fake never saw the connection close")
	}
	a := <-done
	if a.Status != "stopped" || !strings.Contains(a.Content, "palavra3") || strings.Contains(a.Content, "palavra100") {
		t.Fatalf("answer %q %q", a.Status, a.Content)
	}
	var status, content string
	if err := f.pool.QueryRow(context.Background(), `SELECT status, content FROM ai_messages WHERE id = $1`, a.ID).Scan(&status, &content); err != nil {
		t.Fatal(err)
	}
	if status != "stopped" || content != a.Content {
		t.Fatalf("stored %q %q", status, content)
	}
}

func TestRetriesBeforeFirstByte(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	conv := f.conv(t, u)
	f.fake.Push(fakeoai.Script{Status: http.StatusTooManyRequests, RetryAfter: "0"},
		fakeoai.Script{Status: http.StatusBadGateway},
		fakeoai.Script{Chunks: []string{"Resposta", " final."}})
	a, _ := f.ask(t, u, conv, "Pergunta qualquer")
	if a.Status != "complete" || a.Content != "Resposta final." {
		t.Fatalf("answer %q %q %q", a.Status, a.Content, a.Error)
	}
	if n := len(f.fake.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

func TestRetriesGiveUp(t *testing.T) {
	f := newFixture(t, func(o *ai.Options) { o.Retries = 1 })
	u := f.user(t)
	conv := f.conv(t, u)
	f.fake.Push(fakeoai.Script{Status: 429, RetryAfter: "0"}, fakeoai.Script{Status: 429, RetryAfter: "0"}, fakeoai.Script{Chunks: []string{"nunca"}})
	a, _ := f.ask(t, u, conv, "Pergunta")
	if a.Status != "failed" || !a.Retryable || a.Error == "" {
		t.Fatalf("answer %+v", a)
	}
	if n := len(f.fake.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
	// Nothing arrived: the question did not use up the quota.
	if q, _ := f.svc.Quota(context.Background(), u); q.UsedToday != 0 {
		t.Fatalf("counted %d", q.UsedToday)
	}
}

func TestFailureMidStreamKeepsWhatArrived(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	conv := f.conv(t, u)
	f.fake.Push(fakeoai.Script{Chunks: []string{"Primeira", " parte", " perdida"}, FailAfter: 2})
	a, _ := f.ask(t, u, conv, "Pergunta")
	if a.Status != "failed" || a.Content != "Primeira parte" || !a.Retryable {
		t.Fatalf("answer %q %q", a.Status, a.Content)
	}
	if n := len(f.fake.Requests()); n != 1 {
		t.Fatalf("retried after the first byte: %d requests", n)
	}
	// 'Tentar novamente' answers the same question again.
	turn, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Regenerate: true})
	if err != nil {
		t.Fatal(err)
	}
	b := f.svc.Stream(context.Background(), turn, (&recorder{}).emit)
	_, msgs, _ := f.svc.Get(context.Background(), u, conv)
	if b.Status != "complete" || len(msgs) != 2 || msgs[1].ID != b.ID {
		t.Fatalf("regenerate: %q, %d messages", b.Status, len(msgs))
	}
}

func TestFinishLength(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	f.fake.Push(fakeoai.Script{Chunks: []string{"Cortada"}, FinishReason: "length"})
	a, _ := f.ask(t, u, f.conv(t, u), "Pergunta")
	if a.Status != "length" {
		t.Fatalf("status %q", a.Status)
	}
}

func TestTrialDailyLimitResetsAtSaoPauloMidnight(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	conv := f.conv(t, u)
	for i := 0; i < 5; i++ {
		f.fake.Push(fakeoai.Script{Chunks: []string{"ok"}})
		f.ask(t, u, conv, fmt.Sprintf("Pergunta %d", i))
	}
	_, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Sexta pergunta"})
	var lim *ai.LimitError
	if !errors.As(err, &lim) || core.ErrorCode(err) != core.ERATELIMITED || lim.Quota.Premium {
		t.Fatalf("6th question: %v", err)
	}
	if !strings.Contains(core.ErrorMessage(err), "5 consultas diárias") || !strings.Contains(core.ErrorMessage(err), "Premium") {
		t.Fatalf("message %q", core.ErrorMessage(err))
	}
	// 23:59 in São Paulo (02:59 UTC next day): still the same day.
	f.clock.Set(time.Date(2026, 11, 25, 2, 59, 0, 0, time.UTC))
	if _, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Ainda hoje"}); !errors.As(err, &lim) {
		t.Fatalf("23:59 São Paulo: %v", err)
	}
	// 00:00 in São Paulo (03:00 UTC): a new day.
	f.clock.Set(time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC))
	turn, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Novo dia"})
	if err != nil {
		t.Fatalf("after midnight: %v", err)
	}
	f.svc.Stream(context.Background(), turn, (&recorder{}).emit)
	q, _ := f.svc.Quota(context.Background(), u)
	if q.UsedToday != 1 || q.Remaining != 4 {
		t.Fatalf("quota %+v", q)
	}
}

func TestConcurrentQuestionsCannotPassTheLimit(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	var convs []string
	for i := 0; i < 8; i++ {
		convs = append(convs, f.conv(t, u))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for _, c := range convs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.svc.Begin(context.Background(), u, c, ai.AskInput{Content: "Pergunta"}); err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ok != 5 {
		t.Fatalf("%d questions accepted, want 5", ok)
	}
}

func TestPremiumDailyQuotaAndMonthlyTokens(t *testing.T) {
	f := newFixture(t, func(o *ai.Options) { o.PremiumDaily = 2; o.PremiumMonthlyTokens = 1 })
	u := f.user(t)
	f.prem[u] = true
	conv := f.conv(t, u)
	f.ask(t, u, conv, "Primeira") // spends tokens past the budget of 1
	_, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Segunda"})
	var lim *ai.LimitError
	if !errors.As(err, &lim) || !lim.Quota.Premium || core.ErrorMessage(err) != ai.MsgPremiumTokens {
		t.Fatalf("token budget: %v", err)
	}

	g := newFixture(t, func(o *ai.Options) { o.PremiumDaily = 2 })
	v := g.user(t)
	g.prem[v] = true
	c := g.conv(t, v)
	g.ask(t, v, c, "Uma")
	g.ask(t, v, c, "Duas")
	if _, err := g.svc.Begin(context.Background(), v, c, ai.AskInput{Content: "Três"}); !errors.As(err, &lim) || !strings.Contains(core.ErrorMessage(err), "limite diário de 2") {
		t.Fatalf("daily quota: %v", err)
	}
}

func TestOnlyTheOwnerReadsAConversation(t *testing.T) {
	f := newFixture(t, nil)
	ana, bia := f.user(t), f.user(t)
	conv := f.conv(t, ana)
	f.ask(t, ana, conv, "Pergunta da Ana sobre vacinação")
	ctx := context.Background()
	if _, _, err := f.svc.Get(ctx, bia, conv); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("get by another member: %v", err)
	}
	if _, err := f.svc.Rename(ctx, bia, conv, "Minha"); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("rename by another member: %v", err)
	}
	if err := f.svc.Delete(ctx, bia, conv); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("delete by another member: %v", err)
	}
	if _, err := f.svc.Begin(ctx, bia, conv, ai.AskInput{Content: "Intrusa"}); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("ask in another's conversation: %v", err)
	}
	if list, _ := f.svc.List(ctx, bia, ""); len(list) != 0 {
		t.Fatalf("another's list: %+v", list)
	}
	// Search with accents ignored finds the owner's conversation by its words.
	if list, _ := f.svc.List(ctx, ana, "vacina"); len(list) != 1 {
		t.Fatalf("search vacina: %+v", list)
	}
	if list, _ := f.svc.List(ctx, ana, "ortopedia"); len(list) != 0 {
		t.Fatalf("search ortopedia: %+v", list)
	}
	if err := f.svc.Delete(ctx, ana, conv); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Delete(ctx, ana, conv); err != nil {
		t.Fatalf("retried delete: %v", err)
	}
}

func TestEditAndResendReplacesLaterTurns(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	conv := f.conv(t, u)
	f.ask(t, u, conv, "Primeira pergunta")
	f.ask(t, u, conv, "Segunda pergunta")
	_, msgs, _ := f.svc.Get(context.Background(), u, conv)
	turn, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Primeira, corrigida", EditOf: msgs[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	f.svc.Stream(context.Background(), turn, (&recorder{}).emit)
	_, msgs, _ = f.svc.Get(context.Background(), u, conv)
	if len(msgs) != 2 || msgs[0].Content != "Primeira, corrigida" {
		t.Fatalf("after edit: %+v", msgs)
	}
}

func TestRetriedQuestionIsNotDoubled(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	conv := f.conv(t, u)
	id := "3b1f0c7e-6a8b-4c55-9d2e-0f1a2b3c4d5e"
	turn, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Pergunta", ClientID: id})
	if err != nil {
		t.Fatal(err)
	}
	f.svc.Stream(context.Background(), turn, (&recorder{}).emit)
	if _, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Pergunta", ClientID: id}); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("retry: %v", err)
	}
	q, _ := f.svc.Quota(context.Background(), u)
	if q.UsedToday != 1 {
		t.Fatalf("counted %d", q.UsedToday)
	}
}

func TestDisclaimerMustBeAccepted(t *testing.T) {
	f := newFixture(t, nil)
	var u string
	_ = f.pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ('sem-aceite@exemplo.com.br') RETURNING id`).Scan(&u)
	conv := f.conv(t, u)
	if _, err := f.svc.Begin(context.Background(), u, conv, ai.AskInput{Content: "Pergunta"}); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("without acceptance: %v", err)
	}
}

func TestRareWordsRankAboveCommonOnes(t *testing.T) {
	f := newFixture(t, nil)
	f.publish(t, "analgesia-caes", "Estudo compara protocolos de analgesia no pós-operatório de cães",
		"Os cuidados no período pós-operatório de cães incluem analgesia multimodal. Cães operados recebem cuidados de enfermagem e os cães idosos exigem mais cuidados no período de recuperação.")
	lepto := f.publish(t, "leptospirose-chuvas", "Período de chuvas acende alerta para leptospirose em cães",
		"As enchentes aumentam o contato com urina de roedores. A leptospirose exige vacinação anual e atenção a sinais como icterícia e insuficiência renal.")
	src, err := f.svc.Retrieve(context.Background(), f.user(t), "Quais os cuidados com a leptospirose em cães no período de chuvas?")
	if err != nil || len(src) == 0 || src[0].ItemID != lepto {
		t.Fatalf("first source %+v, %v", src, err)
	}
}

// A lesson is quoted only to a member who may open it (the lesson page's
// rule): a premium or enrolled-only lesson never reaches anyone else's
// answer, and without the rule no lesson is retrieved at all.
func TestLessonsAreRetrievedOnlyForMembersWhoMayOpenThem(t *testing.T) {
	open := map[string]bool{}
	var mu sync.Mutex
	f := newFixture(t, func(o *ai.Options) {
		o.CanOpenLesson = func(_ context.Context, lessonID, userID string) (bool, error) {
			mu.Lock()
			defer mu.Unlock()
			return open[lessonID+"/"+userID], nil
		}
	})
	ctx := context.Background()
	body := "A erliquiose canina transmitida pelo carrapato causa trombocitopenia; o tratamento com doxiciclina dura 28 dias."
	var course, module, lesson string
	for _, q := range []struct {
		dst      *string
		typ, slg string
	}{{&course, "cursos", "curso-hemoparasitoses"}, {&module, "cursos-modulos", "modulo-1"}, {&lesson, "cursos-aulas", "aula-erliquiose"}} {
		if err := f.pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, status, fields) VALUES ($1, $2, $2, 'publicado', '{}') RETURNING id`, q.typ, q.slg).Scan(q.dst); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.pool.Exec(ctx, `INSERT INTO course_listings (item_id, slug, title, sort_title, published_at, revision) VALUES ($1, 'curso-hemoparasitoses', 'Hemoparasitoses', 'hemoparasitoses', now(), 1)`, course); err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Exec(ctx, `INSERT INTO course_curriculum (course_id, lesson_id, module_id, position, module_position, lesson_position, required)
		VALUES ($1, $2, $3, 1, 1, 1, true)`, course, lesson, module); err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Exec(ctx, `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		VALUES ($1, 'cursos-aulas', 'aula-erliquiose', 'Erliquiose canina', '', jsonb_build_object('body', $2::text),
		setweight(to_tsvector('vetclube_pt', 'Erliquiose canina'), 'A') || setweight(to_tsvector('vetclube_pt', $2), 'C'), 1, now(), now())`, lesson, body); err != nil {
		t.Fatal(err)
	}
	reader, outsider := f.user(t), f.user(t)
	mu.Lock()
	open[lesson+"/"+reader] = true
	mu.Unlock()
	question := "Qual o tratamento da erliquiose canina?"
	src, err := f.svc.Retrieve(ctx, reader, question)
	if err != nil || len(src) != 1 || src[0].ItemID != lesson || src[0].URL != "/cursos/"+course+"/aula/"+lesson {
		t.Fatalf("reader's sources %+v, %v", src, err)
	}
	if src, err := f.svc.Retrieve(ctx, outsider, question); err != nil || len(src) != 0 {
		t.Fatalf("a lesson closed to the member was retrieved: %+v, %v", src, err)
	}
	noRule := ai.New(f.pool, ai.Options{})
	if src, err := noRule.Retrieve(ctx, reader, question); err != nil || len(src) != 0 {
		t.Fatalf("without an access rule a lesson was retrieved: %+v, %v", src, err)
	}
}

func TestOverviewForTheBackoffice(t *testing.T) {
	f := newFixture(t, nil)
	u := f.user(t)
	item := f.publish(t, "protocolo-vacinal-filhotes", "Protocolo vacinal de filhotes", vaccineBody)
	conv := f.conv(t, u)
	// The clock is the fixture's: ask "today" as the overview sees it.
	a, _ := f.ask(t, u, conv, "Quando começa a vacinação de filhotes?")
	if err := f.svc.Report(context.Background(), u, a.ID, "Faltou a dose da vacina"); err != nil {
		t.Fatal(err)
	}
	other := f.user(t)
	if err := f.svc.Report(context.Background(), other, a.ID, "não é minha"); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("report of another's answer: %v", err)
	}
	o, err := f.svc.Overview(context.Background(), 30)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.ByDay) != 1 || o.ByDay[0].Messages != 1 || o.ByDay[0].Tokens == 0 || o.ByDay[0].Day != "2026-11-24" {
		t.Fatalf("by day %+v", o.ByDay)
	}
	if len(o.ByMember) != 1 || o.ByMember[0].UserID != u || o.ByMember[0].Messages != 1 {
		t.Fatalf("by member %+v", o.ByMember)
	}
	if len(o.Sources) == 0 || o.Sources[0].ItemID != item || o.Sources[0].Cites != 1 {
		t.Fatalf("sources %+v", o.Sources)
	}
	if len(o.Reports) != 1 || o.Reports[0].Reason != "Faltou a dose da vacina" || o.Reports[0].Question != "Quando começa a vacinação de filhotes?" {
		t.Fatalf("reports %+v", o.Reports)
	}
}
