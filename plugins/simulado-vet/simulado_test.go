package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
	"github.com/vetclube/vetclube/plugins/simulado-vet/bank"
)

type fixture struct {
	t    *testing.T
	host *sdktest.Host
	h    http.Handler
	mu   sync.Mutex
	now  time.Time
}

// newFixture publishes the whole bank into a fresh schema through the
// AfterPublish hook, as the core does on each publish.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, now: time.Date(2026, 3, 2, 13, 0, 0, 0, time.UTC)}
	f.host = sdktest.New(t, sdktest.WithSQL(Migrations))
	// TRIAL_LIMITS' default, as the core applies it through CheckLimit.
	f.host.SetLimit(LimitName, DefaultTrialSimulados)
	tool := Plugin(f.clock)
	qs, err := bank.Questions()
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		it := sdk.ContentItem{ID: fmt.Sprintf("q%03d", i), Type: QuestionType, Version: 1, Title: q.Title(), Fields: q.Fields(), Published: true, Status: "publicado"}
		if err := f.host.AfterPublish(context.Background(), tool, it); err != nil {
			t.Fatal(err)
		}
	}
	f.h = tool.Handler(f.host.Host)
	return f
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

func (f *fixture) call(user sdk.User, method, path string, body any) (int, map[string]any) {
	f.t.Helper()
	var b []byte
	switch v := body.(type) {
	case nil:
	case string:
		b = []byte(v)
	default:
		b, _ = json.Marshal(v)
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, f.host.As(httptest.NewRequest(method, path, bytes.NewReader(b)), user))
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

var ana, bruno = sdktest.User("ana"), sdktest.User("bruno")

func (f *fixture) start(u sdk.User, areas []string, size int) string {
	f.t.Helper()
	code, out := f.call(u, "POST", "/simulados", map[string]any{"areas": areas, "size": size})
	if code != http.StatusCreated {
		f.t.Fatalf("start: %d %v", code, out)
	}
	return out["id"].(string)
}

func questions(out map[string]any) []map[string]any {
	var qs []map[string]any
	for _, q := range out["questions"].([]any) {
		qs = append(qs, q.(map[string]any))
	}
	return qs
}

// correctOf reads the right answers from the plugin's own tables (the
// member never sees them before submitting).
func (f *fixture) correctOf(id string) []int {
	var rows []struct {
		Correct int `json:"correct"`
	}
	if err := f.host.Host.Query(context.Background(), &rows, `SELECT correct FROM attempt_questions WHERE attempt_id = $1 ORDER BY pos`, id); err != nil {
		f.t.Fatal(err)
	}
	out := make([]int, len(rows))
	for i, r := range rows {
		out[i] = r.Correct
	}
	return out
}

func TestManifestIsValid(t *testing.T) {
	if err := Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestSimuladoResumeScoreAndNoAnswersBeforeSubmit(t *testing.T) {
	f := newFixture(t)
	id := f.start(ana, []string{"cardiologia", "cirurgia"}, 10)
	correct := f.correctOf(id)
	// Seven right, one wrong, one marked for review, one left blank.
	for pos := 1; pos <= 8; pos++ {
		ans := correct[pos-1]
		if pos == 8 {
			ans = (ans + 1) % 4
		}
		if code, out := f.call(ana, "PUT", fmt.Sprintf("/simulados/%s/answers/%d", id, pos), map[string]any{"answer": ans}); code != 200 {
			t.Fatalf("answer %d: %d %v", pos, code, out)
		}
	}
	f.call(ana, "PUT", "/simulados/"+id+"/answers/9", map[string]any{"marked": true})
	// A reload: everything is there, and no correct answer is sent.
	code, out := f.call(ana, "GET", "/simulados/"+id, nil)
	raw, _ := json.Marshal(out)
	if code != 200 || out["status"] != "open" || out["answered"].(float64) != 8 || strings.Contains(string(raw), `"correct"`) || strings.Contains(string(raw), "explanation") {
		t.Fatalf("resume: %d %s", code, raw)
	}
	if qs := questions(out); !qs[8]["marked"].(bool) || qs[0]["answer"].(float64) != float64(correct[0]) {
		t.Fatalf("saved answers or mark lost: %v", qs[8])
	}
	if _, ov := f.call(ana, "GET", "/overview", nil); ov["open"].(map[string]any)["simulado"] != id {
		t.Fatalf("overview does not offer to resume: %v", ov["open"])
	}
	code, out = f.call(ana, "POST", "/simulados/"+id+"/submit", nil)
	if code != 200 || out["status"] != "submitted" || out["score"].(float64) != 7 || out["coins"].(float64) != 14 {
		t.Fatalf("submit: %d %v", code, out)
	}
	q1 := questions(out)[0]
	if q1["correct"] == nil || q1["explanation"] == "" || q1["is_correct"] != true {
		t.Fatalf("result lacks the correction: %v", q1)
	}
	total := 0.0
	for _, a := range out["by_area"].([]any) {
		total += a.(map[string]any)["total"].(float64)
	}
	if total != 10 {
		t.Fatalf("by area: %v", out["by_area"])
	}
	if a := f.host.Awards(); len(a) != 1 || a[0].Amount != 14 || a[0].Kind != "challenge" || a[0].IdempotencyKey != "attempt:"+id {
		t.Fatalf("awards: %+v", a)
	}
	// After submitting nothing changes.
	if code, _ := f.call(ana, "PUT", "/simulados/"+id+"/answers/10", map[string]any{"answer": 1}); code != http.StatusConflict {
		t.Fatalf("answer after submit: %d", code)
	}
	code, hist := f.call(ana, "GET", "/simulados", nil)
	if code != 200 || len(hist["attempts"].([]any)) != 1 || len(hist["evolution"].([]any)) == 0 {
		t.Fatalf("history: %d %v", code, hist)
	}
}

func TestAnotherMemberGets404(t *testing.T) {
	f := newFixture(t)
	id := f.start(ana, []string{"oncologia"}, 10)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/simulados/" + id, nil},
		{"PUT", "/simulados/" + id + "/answers/1", map[string]any{"answer": 0}},
		{"POST", "/simulados/" + id + "/submit", nil},
		{"GET", "/quiz/" + id, nil},
	} {
		if code, _ := f.call(bruno, c.method, c.path, c.body); code != http.StatusNotFound {
			t.Errorf("%s %s by another member: %d", c.method, c.path, code)
		}
	}
	if _, hist := f.call(bruno, "GET", "/simulados", nil); len(hist["attempts"].([]any)) != 0 {
		t.Fatalf("another member's history shows ana's")
	}
	if _, out := f.call(ana, "GET", "/simulados/"+id, nil); out["status"] != "open" || out["answered"].(float64) != 0 {
		t.Fatalf("ana's attempt changed: %v", out)
	}
}

func TestTimeOutSubmitsOnNextRead(t *testing.T) {
	f := newFixture(t)
	id := f.start(ana, []string{"neurologia"}, 10)
	correct := f.correctOf(id)
	f.call(ana, "PUT", "/simulados/"+id+"/answers/1", map[string]any{"answer": correct[0]})
	f.advance(10*SecondsPerQuestion*time.Second + time.Second)
	code, out := f.call(ana, "PUT", "/simulados/"+id+"/answers/2", map[string]any{"answer": correct[1]})
	if code != http.StatusConflict || !strings.Contains(out["error"].(map[string]any)["message"].(string), "tempo acabou") {
		t.Fatalf("answer after the deadline: %d %v", code, out)
	}
	_, out = f.call(ana, "GET", "/simulados/"+id, nil)
	if out["status"] != "submitted" || out["timed_out"] != true || out["score"].(float64) != 1 {
		t.Fatalf("timed out: %v", out)
	}
}

func TestConcurrentSubmitsCreditOnce(t *testing.T) {
	f := newFixture(t)
	id := f.start(ana, []string{"ortopedia"}, 10)
	for pos, c := range f.correctOf(id) {
		f.call(ana, "PUT", fmt.Sprintf("/simulados/%s/answers/%d", id, pos+1), map[string]any{"answer": c})
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			f.h.ServeHTTP(rec, f.host.As(httptest.NewRequest("POST", "/simulados/"+id+"/submit", nil), ana))
			if rec.Code != 200 {
				t.Errorf("submit: %d %s", rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	if a := f.host.Awards(); len(a) != 1 || a[0].Amount != 20 {
		t.Fatalf("awards after 20 concurrent submits: %+v", a)
	}
}

func TestDailyCapAndTrialLimit(t *testing.T) {
	f := newFixture(t)
	premium := sdk.User{ID: "paula", Subscription: "premium"}
	earned := 0
	for i := range 4 {
		id := f.start(premium, []string{"clinica_geral", "dermatologia", "cardiologia"}, 10)
		for pos, c := range f.correctOf(id) {
			f.call(premium, "PUT", fmt.Sprintf("/simulados/%s/answers/%d", id, pos+1), map[string]any{"answer": c})
		}
		_, out := f.call(premium, "POST", "/simulados/"+id+"/submit", nil)
		earned += int(out["coins"].(float64))
		if i == 3 && out["coins"].(float64) != 0 {
			t.Fatalf("the fourth perfect simulado of the day earned %v", out["coins"])
		}
	}
	if earned != DailyCoinsCap {
		t.Fatalf("earned %d in a day, cap %d", earned, DailyCoinsCap)
	}
	// A new day (Brasília) opens the cap again.
	f.advance(24 * time.Hour)
	id := f.start(premium, []string{"cirurgia"}, 10)
	f.call(premium, "PUT", "/simulados/"+id+"/answers/1", map[string]any{"answer": f.correctOf(id)[0]})
	if _, out := f.call(premium, "POST", "/simulados/"+id+"/submit", nil); out["coins"].(float64) != CoinsPerCorrect {
		t.Fatalf("next day: %v", out["coins"])
	}

	// Trial: three simulados, the fourth refused with the reason and the
	// Premium invitation, even when asked for at once.
	for range DefaultTrialSimulados {
		id := f.start(ana, []string{"oftalmologia"}, 10)
		f.call(ana, "POST", "/simulados/"+id+"/submit", nil)
	}
	var wg sync.WaitGroup
	codes := make(chan int, 10)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _ := f.call(ana, "POST", "/simulados", map[string]any{"areas": []string{"cirurgia"}, "size": 10})
			codes <- code
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusForbidden {
			t.Fatalf("a trial member's 4th simulado: %d", c)
		}
	}
	code, out := f.call(ana, "POST", "/simulados", map[string]any{"areas": []string{"cirurgia"}, "size": 10})
	if code != 403 || out["upgrade"] != true || !strings.Contains(out["error"].(map[string]any)["message"].(string), "Premium") {
		t.Fatalf("refusal: %d %v", code, out)
	}
}

func TestQuizImmediateFeedback(t *testing.T) {
	f := newFixture(t)
	code, out := f.call(bruno, "POST", "/quiz", map[string]any{"area": "emergencias"})
	if code != http.StatusCreated {
		t.Fatalf("quiz: %d %v", code, out)
	}
	id := out["id"].(string)
	if qs := questions(out); len(qs) != QuizSize || qs[0]["correct"] != nil {
		t.Fatalf("round: %v", qs[0])
	}
	correct := f.correctOf(id)
	code, out = f.call(bruno, "POST", "/quiz/"+id+"/answers/1", map[string]any{"answer": (correct[0] + 1) % 4})
	q := questions(out)[0]
	if code != 200 || q["is_correct"] != false || q["correct"].(float64) != float64(correct[0]) || q["explanation"] == "" {
		t.Fatalf("feedback: %d %v", code, q)
	}
	if questions(out)[1]["correct"] != nil {
		t.Fatal("an unanswered question's answer was sent")
	}
	if code, _ := f.call(bruno, "POST", "/quiz/"+id+"/answers/1", map[string]any{"answer": correct[0]}); code != http.StatusConflict {
		t.Fatalf("second answer: %d", code)
	}
	for pos := 2; pos <= QuizSize; pos++ {
		if code, out = f.call(bruno, "POST", fmt.Sprintf("/quiz/%s/answers/%d", id, pos), map[string]any{"answer": correct[pos-1]}); code != http.StatusOK {
			t.Fatalf("answer %d: %d %v", pos, code, out)
		}
	}
	if out["status"] != "submitted" || out["score"].(float64) != 9 || out["coins"].(float64) != 18 {
		t.Fatalf("round end: %v", out)
	}
	if a := f.host.Awards(); len(a) != 1 || a[0].Kind != "challenge" {
		t.Fatalf("awards: %+v", a)
	}
}

func TestHostileInputs(t *testing.T) {
	f := newFixture(t)
	id := f.start(ana, []string{"cirurgia"}, 10)
	cases := []struct {
		method, path string
		body         any
		want         int
	}{
		{"POST", "/simulados", map[string]any{"areas": []string{}, "size": 10}, 422},
		{"POST", "/simulados", map[string]any{"areas": []string{"astrologia"}, "size": 10}, 422},
		{"POST", "/simulados", map[string]any{"areas": []string{"cirurgia"}, "size": 11}, 422},
		{"POST", "/simulados", map[string]any{"areas": []string{"cirurgia'; DROP TABLE attempts;--"}, "size": 10}, 422},
		{"POST", "/simulados", `{"areas": ["cirurgia"], "size": "dez"}`, 422},
		{"POST", "/simulados", `{"areas": ["ci\u0000rurgia"], "size": 10}`, 422},
		{"POST", "/quiz", map[string]any{"area": ""}, 422},
		{"PUT", "/simulados/" + id + "/answers/0", map[string]any{"answer": 0}, 422},
		{"PUT", "/simulados/" + id + "/answers/11", map[string]any{"answer": 0}, 422},
		{"PUT", "/simulados/" + id + "/answers/x", map[string]any{"answer": 0}, 422},
		{"PUT", "/simulados/" + id + "/answers/1", map[string]any{"answer": 9}, 422},
		{"PUT", "/simulados/" + id + "/answers/1", map[string]any{"answer": -1}, 422},
		{"PUT", "/simulados/" + id + "/answers/1", `[1,2]`, 422},
		{"GET", "/simulados/%27%20OR%20%271%27%3D%271", nil, 404},
		{"GET", "/simulados/" + strings.Repeat("a", 32), nil, 404},
	}
	for _, c := range cases {
		code, out := f.call(ana, c.method, c.path, c.body)
		if code != c.want {
			t.Errorf("%s %s %v: %d %v, want %d", c.method, c.path, c.body, code, out, c.want)
			continue
		}
		if e, _ := out["error"].(map[string]any); e == nil || e["message"] == "" {
			t.Errorf("%s %s: no pt-BR message: %v", c.method, c.path, out)
		}
	}
	// A 5th option on a 4-option question is refused, not saved.
	if code, _ := f.call(ana, "PUT", "/simulados/"+id+"/answers/1", map[string]any{"answer": 4}); code != http.StatusConflict {
		t.Errorf("option e on a 4-option question: %d", code)
	}
}

func TestValidateQuestion(t *testing.T) {
	qs, _ := bank.Questions()
	fields := qs[0].Fields()
	fields["correct"] = "e"
	c, _ := Validate(context.Background(), nil, sdk.ContentItem{Type: QuestionType, Fields: fields})
	if c.Errors["correct"] != MsgCorrectMissing {
		t.Fatalf("empty correct option: %v", c.Errors)
	}
	fields = qs[0].Fields()
	fields["option_b"] = fields["option_a"]
	if c, _ := Validate(context.Background(), nil, sdk.ContentItem{Type: QuestionType, Fields: fields}); c.Errors["option_b"] != MsgOptionRepeated {
		t.Fatalf("repeated option: %v", c.Errors)
	}
	if c, _ := Validate(context.Background(), nil, sdk.ContentItem{Type: QuestionType, Fields: qs[0].Fields()}); c.Errors != nil {
		t.Fatalf("valid question refused: %v", c.Errors)
	}
}

func TestExportAndDeleteOnlyTheMembersAttempts(t *testing.T) {
	f := newFixture(t)
	id := f.start(ana, []string{"cirurgia"}, 10)
	f.call(ana, "PUT", "/simulados/"+id+"/answers/1", map[string]any{"answer": 2})
	other := f.start(bruno, []string{"cirurgia"}, 10)
	ctx := context.Background()
	files, err := exportUser(ctx, f.host.Host, "ana")
	if err != nil || len(files) != 1 {
		t.Fatalf("export: %v %v", files, err)
	}
	if s := string(files[0].Data); !strings.Contains(s, id) || strings.Contains(s, other) || !strings.Contains(s, `"answer": 2`) {
		t.Fatalf("export holds: %s", s)
	}
	if err := deleteUser(ctx, f.host.Host, "ana"); err != nil {
		t.Fatal(err)
	}
	if code, _ := f.call(ana, "GET", "/simulados/"+id, nil); code != http.StatusNotFound {
		t.Fatalf("after deletion: %d", code)
	}
	if code, _ := f.call(bruno, "GET", "/simulados/"+other, nil); code != http.StatusOK {
		t.Fatalf("another member's attempt after deletion: %d", code)
	}
}
