package seed_test

import (
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
)

// With the simulado plugin loaded (a real process), the seed publishes the
// question bank once through the workflow; the plugin receives every
// question, the public content API never serves them (their answers), both
// tool pages are listed, and a member's simulado is built from the bank and
// credits challenge VetCoins once.
func TestSeedPublishesTheQuestionBank(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "simulado-vet")})
	for range 2 {
		if err := seed.Run(t.Context(), srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT count(*) FROM content_items WHERE type = 'simulado-questoes' AND status = 'publicado'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n < 200 {
		t.Fatalf("%d published questions", n)
	}
	member, _ := srv.SignedIn(t, "aluna@example.com")
	if r := member.Do("GET", "/api/content/simulado-questoes", nil); r.Status != http.StatusNotFound {
		t.Fatalf("public list of the bank: %d %s", r.Status, r.Body)
	}
	var tools struct{ Tools []struct{ ID, Slug string } }
	member.Do("GET", "/api/tools", nil).JSON(t, &tools)
	slugs := map[string]string{}
	for _, tl := range tools.Tools {
		slugs[tl.Slug] = tl.ID
	}
	if slugs["simulado-vet"] != "simulado-vet" || slugs["quiz-area"] != "simulado-vet" {
		t.Fatalf("tools: %+v", tools.Tools)
	}
	var ov struct {
		Areas []struct {
			Value string
			Count int
		}
	}
	member.Do("GET", "/api/tools/simulado-vet/overview", nil).JSON(t, &ov)
	total := 0
	for _, a := range ov.Areas {
		total += a.Count
	}
	if total != n {
		t.Fatalf("the plugin's bank has %d questions, %d published", total, n)
	}
	r := member.Do("POST", "/api/tools/simulado-vet/quiz", map[string]any{"area": "cardiologia"})
	if r.Status != http.StatusCreated {
		t.Fatalf("quiz: %d %s", r.Status, r.Body)
	}
	var quiz struct{ ID string }
	r.JSON(t, &quiz)
	var correct []int
	rows, err := srv.App.Pool.Query(t.Context(), `SELECT correct FROM plugin_simulado_vet.attempt_questions WHERE attempt_id = $1 ORDER BY pos`, quiz.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c int
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		correct = append(correct, c)
	}
	for i, c := range correct {
		if r := member.Do("POST", "/api/tools/simulado-vet/quiz/"+quiz.ID+"/answers/"+strconv.Itoa(i+1), map[string]any{"answer": c}); r.Status != 200 {
			t.Fatalf("answer: %d %s", r.Status, r.Body)
		}
	}
	for range 3 {
		member.Do("POST", "/api/tools/simulado-vet/quiz/"+quiz.ID+"/submit", nil)
	}
	var kind string
	var amount, entries int
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT min(kind::text), sum(amount), count(*) FROM points_ledger WHERE idempotency_key LIKE 'plugin:simulado-vet:%'`).Scan(&kind, &amount, &entries); err != nil {
		t.Fatal(err)
	}
	if kind != "challenge" || amount != 20 || entries != 1 {
		t.Fatalf("ledger: kind %s, %d VetCoins in %d entries", kind, amount, entries)
	}
}
