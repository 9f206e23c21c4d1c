package courses_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vetclube/vetclube/core/courses"
)

type page struct {
	Courses []struct {
		ID          string `json:"id"`
		Title       string `json:"title"`
		Description string `json:"description"`
		Students    int    `json:"students"`
		Progress    int    `json:"progress"`
		IsEnrolled  bool   `json:"is_enrolled"`
		IsFavorite  bool   `json:"is_favorite"`
		IsCompleted bool   `json:"is_completed"`
		Level       string `json:"level"`
		Duration    string `json:"duration"`
		Category    *struct {
			Name string `json:"name"`
		} `json:"category"`
		Instructor *struct {
			Name string `json:"name"`
		} `json:"instructor"`
	} `json:"courses"`
	Page    int  `json:"page"`
	HasMore bool `json:"has_more"`
}

func (p page) titles() []string {
	out := []string{}
	for _, c := range p.Courses {
		out = append(out, c.Title)
	}
	return out
}

// Every filter with 'Todos', every sort, search ignoring accents, paging
// with has_more, and the reader's progress and favorites — through HTTP.
func TestCatalogueFiltersSortsAndPages(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	surg := e.publishNew(t, courses.TypeCategory, "Cirurgia", map[string]any{"display_order": 2})
	hidden := e.publishNew(t, courses.TypeCategory, "Oculta", map[string]any{"display_order": 0, "hidden": true})
	bruno := e.publishNew(t, courses.TypeInstructor, "Dr. Bruno Lima", nil)
	shared := e.module(t, "Módulo comum", e.lesson(t, "Aula comum", nil), e.lesson(t, "Aula comum 2", nil))

	// 23 courses: 20 in Clínica by Ana (Iniciante), 3 in Cirurgia by Bruno (Avançado).
	long := strings.Repeat("Descrição **detalhada** do curso com [link](https://exemplo.com). ", 5)
	var ids []string
	for i := range 20 {
		ids = append(ids, e.course(t, fmt.Sprintf("Clínica %02d", i), map[string]any{"rating": float64(i % 5), "description": long}, shared))
	}
	ids = append(ids,
		e.course(t, "Técnicas Cirúrgicas em Cães", map[string]any{"category": surg, "instructor": bruno, "level": "Avançado", "rating": 4.9}, shared),
		e.course(t, "Ética na Cirurgia", map[string]any{"category": surg, "instructor": bruno, "level": "Avançado", "rating": 4.8}, shared),
		e.course(t, "Anestesia Cirúrgica", map[string]any{"category": surg, "instructor": bruno, "level": "Avançado", "tags": []string{"anestesiologia"}}, shared))
	_ = hidden

	// Students: the last Clínica course gets 3, Ética 2, Anestesia 1.
	for n, id := range map[int]string{3: ids[19], 2: ids[21], 1: ids[22]} {
		for range n {
			_, u := e.user(t, true)
			if _, err := e.svc.Enrol(ctx, id, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	me, meID := e.user(t, true)
	if _, err := e.svc.Enrol(ctx, ids[0], meID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Enrol(ctx, ids[1], meID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Detail(ctx, ids[1], meID)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range d.Modules[0].Lessons {
		if _, err := e.finish(ctx, ids[1], l.ID, meID); err != nil {
			t.Fatal(err)
		}
	}
	// Completing the shared lessons completes ids[1]; ids[0] shares them too.
	if _, err := e.svc.ToggleFavorite(ctx, ids[2], meID); err != nil {
		t.Fatal(err)
	}

	list := func(q url.Values) page {
		t.Helper()
		res := me.Do("GET", "/api/cursos?"+q.Encode(), nil)
		if res.Status != http.StatusOK {
			t.Fatalf("GET /api/cursos?%s: %d %s", q.Encode(), res.Status, res.Body)
		}
		var p page
		res.JSON(t, &p)
		return p
	}
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}

	// Paging: 23 courses → 20 with has_more, then 3 without.
	p1 := list(q())
	if len(p1.Courses) != 20 || !p1.HasMore || p1.Page != 1 {
		t.Fatalf("page 1: %d courses, has_more %v", len(p1.Courses), p1.HasMore)
	}
	p2 := list(q("page", "2"))
	if len(p2.Courses) != 3 || p2.HasMore {
		t.Fatalf("page 2: %d courses, has_more %v", len(p2.Courses), p2.HasMore)
	}
	// 'Todos' everywhere is no filter at all.
	if all := list(q("category", "Todos", "level", "Todos", "instructor", "Todos", "status", "Todos")); !slices.Equal(all.titles(), p1.titles()) {
		t.Errorf("'Todos' changed the list: %v", all.titles())
	}
	// Exactly a full page and nothing more: no further page.
	if c := list(q("category", e.category)); len(c.Courses) != 20 || c.HasMore {
		t.Errorf("category Clínica: %d, has_more %v", len(c.Courses), c.HasMore)
	}
	// Popular (default): by students.
	if got := p1.titles()[:3]; !slices.Equal(got, []string{"Clínica 19", "Ética na Cirurgia", "Anestesia Cirúrgica"}) {
		t.Errorf("popular: %v", got)
	}
	// Filters.
	if got := list(q("category", surg)).titles(); len(got) != 3 {
		t.Errorf("category Cirurgia: %v", got)
	}
	if got := list(q("instructor", bruno)).titles(); len(got) != 3 {
		t.Errorf("instructor Bruno: %v", got)
	}
	if got := list(q("level", "Avançado", "category", surg, "instructor", bruno)).titles(); len(got) != 3 {
		t.Errorf("level Avançado: %v", got)
	}
	if got := list(q("level", "Intermediário")).titles(); len(got) != 0 {
		t.Errorf("level Intermediário: %v", got)
	}
	// Sorts.
	if got := list(q("category", surg, "sort", "title")).titles(); !slices.Equal(got, []string{"Anestesia Cirúrgica", "Ética na Cirurgia", "Técnicas Cirúrgicas em Cães"}) {
		t.Errorf("title (accents folded): %v", got)
	}
	if got := list(q("category", surg, "sort", "rating")).titles(); !slices.Equal(got, []string{"Técnicas Cirúrgicas em Cães", "Ética na Cirurgia", "Anestesia Cirúrgica"}) {
		t.Errorf("rating: %v", got)
	}
	if got := list(q("category", surg, "sort", "newest")).titles(); !slices.Equal(got, []string{"Anestesia Cirúrgica", "Ética na Cirurgia", "Técnicas Cirúrgicas em Cães"}) {
		t.Errorf("newest: %v", got)
	}
	// Search: Portuguese stems, accents and case ignored; category, instructor and tags searched too.
	// Partial words too, typos by similarity when nothing matches, and
	// operators are only separators.
	for term, want := range map[string]int{"cirurgia": 3, "CIRÚRGICAS": 3, "etica": 1, "bruno": 3, "anestesiologia": 1, "clinica 07": 1, "clinica": 20,
		"cirurg": 3, "anest": 1, "téc cirúrg": 1, "anestesai": 1, "&|!:*()": 0, "dermatologia | etica": 0, "'": 0} {
		if got := list(q("q", term)).titles(); len(got) != want {
			t.Errorf("search %q: %d results %v, want %d", term, len(got), got, want)
		}
	}
	// Status: enrolled, completed, favorites, and the reader's state on the cards.
	enrolled := list(q("status", "enrolled"))
	if len(enrolled.Courses) != 2 {
		t.Fatalf("enrolled: %v", enrolled.titles())
	}
	for _, c := range enrolled.Courses {
		if !c.IsEnrolled || c.Progress != 100 {
			t.Errorf("enrolled card %s: %+v", c.Title, c)
		}
	}
	if got := list(q("status", "completed")).titles(); len(got) != 2 {
		t.Errorf("completed: %v (both courses share the finished lessons)", got)
	}
	fav := list(q("status", "favorites"))
	if len(fav.Courses) != 1 || !fav.Courses[0].IsFavorite || fav.Courses[0].Title != "Clínica 02" {
		t.Errorf("favorites: %+v", fav.Courses)
	}
	// Cards: description preview of at most 100 characters, plain text.
	c0 := p2.Courses[0]
	for _, c := range p1.Courses {
		if c.Title == "Clínica 00" {
			c0 = c
		}
	}
	if n := utf8.RuneCountInString(c0.Description); n > 101 || strings.ContainsAny(c0.Description, "*[]") || !strings.HasSuffix(c0.Description, "…") {
		t.Errorf("preview (%d): %q", n, c0.Description)
	}
	if c0.Category == nil || c0.Category.Name != "Clínica" || c0.Instructor == nil || c0.Instructor.Name != "Dra. Ana Souza" || c0.Duration != "20min" {
		t.Errorf("card: %+v", c0)
	}
	// Bad input: clear pt-BR errors per parameter.
	res := me.Do("GET", "/api/cursos?sort=preco&status=x&category=abc&page=0", nil)
	if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), courses.MsgBadSort) ||
		!strings.Contains(string(res.Body), courses.MsgBadStatus) || !strings.Contains(string(res.Body), courses.MsgBadPage) {
		t.Errorf("bad query: %d %s", res.Status, res.Body)
	}
	// Signed out: 401.
	if res := e.srv.Client(t).Do("GET", "/api/cursos", nil); res.Status != http.StatusUnauthorized || res.ErrorMessage() != "Usuário não autenticado" {
		t.Errorf("visitor: %d %s", res.Status, res.Body)
	}
	// Filter options: active categories by display order, instructors by name.
	var f courses.Filters
	me.Do("GET", "/api/cursos/filtros", nil).JSON(t, &f)
	var cats, ins []string
	for _, c := range f.Categories {
		cats = append(cats, c.Name)
	}
	for _, c := range f.Instructors {
		ins = append(ins, c.Name)
	}
	if !slices.Equal(cats, []string{"Clínica", "Cirurgia"}) || !slices.Equal(ins, []string{"Dr. Bruno Lima", "Dra. Ana Souza"}) ||
		!slices.Equal(f.Levels, []string{"Iniciante", "Avançado"}) {
		t.Errorf("filters: %v %v %v", cats, ins, f.Levels)
	}
}

// "dermato" finds the dermatology course, with or without accents.
func TestSearchFindsPartialWords(t *testing.T) {
	e := newEnv(t)
	lesson := e.module(t, "Módulo", e.lesson(t, "Aula", nil))
	e.course(t, "Dermatologia Veterinária", nil, lesson)
	e.course(t, "Cardiologia Clínica", nil, lesson)
	me, _ := e.user(t, true)
	for q, want := range map[string][]string{
		"dermato": {"Dermatologia Veterinária"}, "Dermató": {"Dermatologia Veterinária"}, "veterinaria derm": {"Dermatologia Veterinária"},
		"dermatolgia": {"Dermatologia Veterinária"}, "cardio": {"Cardiologia Clínica"}, "dermato cardio": {},
	} {
		res := me.Do("GET", "/api/cursos?q="+url.QueryEscape(q), nil)
		var p page
		res.JSON(t, &p)
		if res.Status != http.StatusOK || !slices.Equal(p.titles(), want) {
			t.Errorf("search %q: %d %v, want %v", q, res.Status, p.titles(), want)
		}
	}
	if res := me.Do("GET", "/api/cursos?q="+url.QueryEscape(strings.Repeat("d", 201)), nil); res.Status != http.StatusUnprocessableEntity {
		t.Errorf("201 characters: %d", res.Status)
	}
}
