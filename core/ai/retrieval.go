package ai

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// Source is one passage of VetClube's published content given to the model
// for a turn, numbered from 1 in the order given.
type Source struct {
	N      int    `json:"n"`
	ItemID string `json:"item_id"`
	Type   string `json:"type"`
	Title  string `json:"title"`
	URL    string `json:"url"`
	Text   string `json:"text"`
	// Cited says whether the stored answer cites it.
	Cited bool `json:"cited"`
}

// Retrieval settings: passages of about 300–500 words, at most maxSources
// given to the model, from at most maxItems matching items.
const (
	passageWords = 400
	minPassage   = 300
	maxSources   = 4
	maxItems     = 8
)

// retrievedTypes are the published content the assistant answers from, and
// the text fields read from each (news, events, courses and their lessons,
// and the diseases reference once it exists).
var retrievedTypes = map[string][]string{
	"noticias":     {"body"},
	"eventos":      {"description"},
	"cursos":       {"description", "what_you_will_learn", "objectives"},
	"cursos-aulas": {"description", "body"},
	"doencas":      {"body", "description", "sinais_clinicos", "diagnostico", "tratamento", "prevencao"},
}

// routes are the PWA paths of the types above (lessons are found through
// their course).
var routes = map[string]string{
	"noticias": "/noticias-veterinarias",
	"eventos":  "/eventos",
	"cursos":   "/cursos",
	"doencas":  "/ferramentas/doencas",
}

// Retrieve finds the passages of published content that best match
// question, with PostgreSQL full-text search: the question's words, stemmed
// in Portuguese without accents (vetclube_pt), any of them matching, items
// ranked by ts_rank_cd over the published search vector (GIN index); each
// item's text is then cut into passages, ranked by the question's stems
// they hold (rarer stems weigh more). It reads the published snapshot
// itself, whose search vector core/content rewrites when the publication
// workflow publishes or edits an item and whose row goes when it is
// unpublished, so what is retrieved follows publication at once, with no
// second index to keep in step.
//
// Lessons are retrieved only for a reader who may open them (the lesson
// page's rule), so a premium or enrolled-only lesson is never quoted to
// someone it is closed to.
func (s *Service) Retrieve(ctx context.Context, readerID, question string) ([]Source, error) {
	var stems []string
	rows, err := s.pool.Query(ctx, `SELECT unnest(tsvector_to_array(to_tsvector('vetclube_pt', left($1, 2000))))`, question)
	if err != nil {
		return nil, fmt.Errorf("question stems: %w", err)
	}
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err != nil {
			rows.Close()
			return nil, err
		}
		if utf8.RuneCountInString(st) >= 3 {
			stems = append(stems, st)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(stems) == 0 {
		return nil, nil
	}
	types := make([]string, 0, len(retrievedTypes))
	for t := range retrievedTypes {
		types = append(types, t)
	}
	// Only stems reach the query, as quoted lexemes joined by OR.
	quoted := make([]string, len(stems))
	for i, st := range stems {
		quoted[i] = "'" + strings.ReplaceAll(st, "'", "''") + "'"
	}
	rows, err = s.pool.Query(ctx, `
		SELECT p.item_id, p.type, p.slug, p.title, p.summary, p.fields,
		       (SELECT cl.slug FROM course_curriculum cc JOIN course_listings cl ON cl.item_id = cc.course_id
		         WHERE cc.lesson_id = p.item_id ORDER BY cc.position LIMIT 1),
		       (SELECT cc.course_id::text FROM course_curriculum cc WHERE cc.lesson_id = p.item_id ORDER BY cc.position LIMIT 1)
		  FROM content_published p, to_tsquery('simple', $1) q
		 WHERE p.type = ANY($2) AND p.search @@ q
		 ORDER BY ts_rank_cd(p.search, q, 1) DESC, p.published_at DESC
		 LIMIT $3`, strings.Join(quoted, " | "), types, maxItems)
	if err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	defer rows.Close()
	type cand struct {
		Source
		score float64
	}
	var cands []cand
	for rows.Next() {
		var id, typ, slug, title, summary string
		var fields map[string]any
		var courseSlug, courseID *string
		if err := rows.Scan(&id, &typ, &slug, &title, &summary, &fields, &courseSlug, &courseID); err != nil {
			return nil, err
		}
		url := ""
		if typ == "cursos-aulas" {
			if courseID == nil {
				continue // a lesson in no published course cannot be linked
			}
			if ok, err := s.mayOpenLesson(ctx, id, readerID); err != nil {
				return nil, err
			} else if !ok {
				continue
			}
			url = "/cursos/" + *courseID + "/aula/" + id
		} else {
			url = routes[typ] + "/" + slug
		}
		var text strings.Builder
		if summary != "" {
			text.WriteString(summary + "\n\n")
		}
		for _, f := range retrievedTypes[typ] {
			if v, ok := fields[f].(string); ok && v != "" {
				text.WriteString(v + "\n\n")
			}
		}
		for _, p := range passages(text.String()) {
			cands = append(cands, cand{Source: Source{ItemID: id, Type: typ, Title: title, URL: url, Text: p}})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// A stem found in few candidate passages says more than one found in
	// all of them ("leptospirose" against "cães"): each stem weighs its
	// inverse document frequency over the candidates; a stem in the title
	// counts again.
	found := make([][]int, len(cands))
	df := make([]int, len(stems))
	for i, c := range cands {
		found[i] = counts(c.Text, stems)
		for k, n := range found[i] {
			if n > 0 {
				df[k]++
			}
		}
	}
	for i := range cands {
		inTitle := counts(cands[i].Title, stems)
		for k, n := range found[i] {
			if n == 0 && inTitle[k] == 0 {
				continue
			}
			idf := math.Log(1 + float64(len(cands))/float64(max(1, df[k])))
			cands[i].score += idf * (1 + 0.1*float64(min(n, 10)))
			if inTitle[k] > 0 {
				cands[i].score += idf
			}
		}
	}
	kept := cands[:0]
	for _, c := range cands {
		if c.score > 0 {
			kept = append(kept, c)
		}
	}
	cands = kept
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var out []Source
	perItem := map[string]int{}
	for _, c := range cands {
		if len(out) == maxSources {
			break
		}
		if perItem[c.ItemID] == 2 {
			continue
		}
		perItem[c.ItemID]++
		c.N = len(out) + 1
		out = append(out, c.Source)
	}
	return out, nil
}

// passages cuts text into passages of about 300–500 words, at paragraph
// boundaries where it can.
func passages(text string) []string {
	var out []string
	var cur []string
	words := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.TrimSpace(strings.Join(cur, "\n\n")))
		}
		cur, words = nil, 0
	}
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		w := strings.Fields(para)
		for len(w) > 500 { // a very long paragraph is cut by words
			flush()
			out = append(out, strings.Join(w[:passageWords], " "))
			w = w[passageWords:]
			para = strings.Join(w, " ")
		}
		if words+len(w) > 500 && words >= minPassage/2 {
			flush()
		}
		cur = append(cur, para)
		words += len(w)
		if words >= passageWords {
			flush()
		}
	}
	flush()
	// A short tail joins the passage before it.
	if n := len(out); n >= 2 && len(strings.Fields(out[n-1])) < 80 {
		out[n-2] += "\n\n" + out[n-1]
		out = out[:n-1]
	}
	return out
}

// counts says, for each stem, how many words of text start with it.
func counts(text string, stems []string) []int {
	words := strings.Fields(wordsOnly(fold(text)))
	out := make([]int, len(stems))
	for k, st := range stems {
		for _, w := range words {
			if strings.HasPrefix(w, st) {
				out[k]++
			}
		}
	}
	return out
}

// mayOpenLesson applies CanOpenLesson; without it no lesson is retrieved.
func (s *Service) mayOpenLesson(ctx context.Context, lessonID, readerID string) (bool, error) {
	if s.o.CanOpenLesson == nil || readerID == "" {
		return false, nil
	}
	ok, err := s.o.CanOpenLesson(ctx, lessonID, readerID)
	if err != nil {
		return false, fmt.Errorf("lesson access: %w", err)
	}
	return ok, nil
}
