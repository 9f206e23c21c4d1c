package main

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/simulado-vet/bank"
)

// questionView is one question of an attempt as the member sees it: the
// correct option and the explanation only once they may know them (the
// attempt submitted, or a quiz question answered).
type questionView struct {
	Pos         int      `json:"pos"`
	Area        string   `json:"area"`
	AreaLabel   string   `json:"area_label"`
	Difficulty  string   `json:"difficulty"`
	Statement   string   `json:"statement"`
	Options     []string `json:"options"`
	Answer      *int     `json:"answer"`
	Marked      bool     `json:"marked"`
	Correct     *int     `json:"correct,omitempty"`
	IsCorrect   *bool    `json:"is_correct,omitempty"`
	Explanation string   `json:"explanation,omitempty"`
	Source      string   `json:"source,omitempty"`
}

type areaScore struct {
	Area    string `json:"area"`
	Label   string `json:"label"`
	Correct int    `json:"correct"`
	Total   int    `json:"total"`
	Percent int    `json:"percent"`
}

func percent(c, t int) int {
	if t == 0 {
		return 0
	}
	return int(math.Round(100 * float64(c) / float64(t)))
}

type qrow struct {
	Pos         int      `json:"pos"`
	Area        string   `json:"area"`
	Correct     int      `json:"correct"`
	Answer      *int     `json:"answer"`
	Marked      bool     `json:"marked"`
	Difficulty  string   `json:"difficulty"`
	Statement   string   `json:"statement"`
	Options     []string `json:"options"`
	Explanation string   `json:"explanation"`
	Source      string   `json:"source"`
}

func (s *server) questions(ctx context.Context, id string) ([]qrow, error) {
	var rows []qrow
	err := s.host.Query(ctx, &rows, `SELECT aq.pos, aq.area, aq.correct, aq.answer, aq.marked, q.difficulty, q.statement, q.options, q.explanation, q.source
		FROM attempt_questions aq JOIN questions q ON q.id = aq.question_id WHERE aq.attempt_id = $1 ORDER BY aq.pos`, id)
	return rows, err
}

// scores are an attempt's results by area, in the areas' order.
func scores(rows []qrow) []areaScore {
	by := map[string]*areaScore{}
	for _, q := range rows {
		a := by[q.Area]
		if a == nil {
			a = &areaScore{Area: q.Area, Label: bank.AreaLabel(q.Area)}
			by[q.Area] = a
		}
		a.Total++
		if q.Answer != nil && *q.Answer == q.Correct {
			a.Correct++
		}
	}
	out := []areaScore{}
	for _, ar := range bank.Areas {
		if a := by[ar.Value]; a != nil {
			a.Percent = percent(a.Correct, a.Total)
			out = append(out, *a)
		}
	}
	return out
}

// respond answers the attempt id of the signed-in member.
func (s *server) respond(w http.ResponseWriter, r *http.Request, mode, id string, status int) {
	ctx, user := r.Context(), sdk.UserFrom(r.Context()).ID
	a, found, err := s.load(ctx, user, mode, id)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	if !found {
		notFound(w, mode)
		return
	}
	rows, err := s.questions(ctx, id)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	done := a.Status == "submitted"
	qs := make([]questionView, len(rows))
	answered := 0
	for i, q := range rows {
		v := questionView{Pos: q.Pos, Area: q.Area, AreaLabel: bank.AreaLabel(q.Area), Difficulty: q.Difficulty,
			Statement: q.Statement, Options: q.Options, Answer: q.Answer, Marked: q.Marked}
		if q.Answer != nil {
			answered++
		}
		if done || (mode == "quiz" && q.Answer != nil) {
			c := q.Correct
			ok := q.Answer != nil && *q.Answer == q.Correct
			v.Correct, v.IsCorrect, v.Explanation, v.Source = &c, &ok, q.Explanation, q.Source
		}
		qs[i] = v
	}
	out := map[string]any{
		"id": a.ID, "mode": a.Mode, "status": a.Status, "areas": areaLabels(a.Areas), "size": a.Size,
		"started_at": a.StartedAt, "answered": answered, "questions": qs, "rule": RuleText,
	}
	if a.Deadline != nil {
		out["deadline"] = a.Deadline
		out["remaining_seconds"] = max(0, int(math.Ceil(a.Deadline.Sub(s.now()).Seconds())))
	}
	if done {
		score := 0
		if a.Score != nil {
			score = *a.Score
		}
		coins := 0
		if a.Coins != nil {
			coins = *a.Coins
		}
		out["submitted_at"], out["timed_out"] = a.SubmittedAt, a.TimedOut
		out["score"], out["total"], out["percent"] = score, len(rows), percent(score, len(rows))
		out["by_area"] = scores(rows)
		out["coins"], out["coins_credited"] = coins, a.CoinsCredited
	}
	sdk.WriteJSON(w, status, out)
}

func areaLabels(values []string) []areaInfo {
	out := make([]areaInfo, 0, len(values))
	for _, v := range values {
		out = append(out, areaInfo{Value: v, Label: bank.AreaLabel(v)})
	}
	return out
}

// history lists the member's submitted simulados, newest first, and the
// evolution of each area's score over them, oldest first.
func (s *server) history(w http.ResponseWriter, r *http.Request) {
	ctx, user := r.Context(), sdk.UserFrom(r.Context()).ID
	var rows []struct {
		ID          string    `json:"id"`
		Size        int       `json:"size"`
		SubmittedAt time.Time `json:"submitted_at"`
		TimedOut    bool      `json:"timed_out"`
		Score       int       `json:"score"`
		Coins       *int      `json:"coins"`
		Area        string    `json:"area"`
		Correct     int       `json:"correct"`
		Total       int       `json:"total"`
	}
	err := s.host.Query(ctx, &rows, `SELECT a.id, a.size, a.submitted_at, a.timed_out, a.score, a.coins, aq.area,
			count(*) FILTER (WHERE aq.answer = aq.correct)::int AS correct, count(*)::int AS total
		FROM attempts a JOIN attempt_questions aq ON aq.attempt_id = a.id
		WHERE a.user_id = $1 AND a.mode = 'simulado' AND a.status = 'submitted'
		GROUP BY a.id, aq.area ORDER BY a.submitted_at, a.id, aq.area`, user)
	if err != nil {
		sdk.WriteHostError(w, err, msgHost)
		return
	}
	type point struct {
		AttemptID string    `json:"attempt_id"`
		At        time.Time `json:"at"`
		Percent   int       `json:"percent"`
	}
	type item struct {
		ID          string      `json:"id"`
		Size        int         `json:"size"`
		SubmittedAt time.Time   `json:"submitted_at"`
		TimedOut    bool        `json:"timed_out"`
		Score       int         `json:"score"`
		Percent     int         `json:"percent"`
		Coins       int         `json:"coins"`
		ByArea      []areaScore `json:"by_area"`
	}
	var items []*item
	idx := map[string]*item{}
	evo := map[string][]point{}
	for _, r := range rows {
		it := idx[r.ID]
		if it == nil {
			it = &item{ID: r.ID, Size: r.Size, SubmittedAt: r.SubmittedAt, TimedOut: r.TimedOut, Score: r.Score, Percent: percent(r.Score, r.Size)}
			if r.Coins != nil {
				it.Coins = *r.Coins
			}
			idx[r.ID] = it
			items = append(items, it)
		}
		p := percent(r.Correct, r.Total)
		it.ByArea = append(it.ByArea, areaScore{Area: r.Area, Label: bank.AreaLabel(r.Area), Correct: r.Correct, Total: r.Total, Percent: p})
		evo[r.Area] = append(evo[r.Area], point{AttemptID: r.ID, At: r.SubmittedAt, Percent: p})
	}
	type evolution struct {
		Area   string  `json:"area"`
		Label  string  `json:"label"`
		Points []point `json:"points"`
	}
	evolutions := []evolution{}
	for _, a := range bank.Areas {
		if pts := evo[a.Value]; len(pts) > 0 {
			evolutions = append(evolutions, evolution{a.Value, a.Label, pts})
		}
	}
	newest := make([]*item, 0, len(items))
	for i := len(items) - 1; i >= 0; i-- {
		newest = append(newest, items[i])
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"attempts": newest, "evolution": evolutions})
}
