package content_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/engagement"
)

func titles(p content.Page) []string {
	out := []string{}
	for _, it := range p.Items {
		out = append(out, it.Title)
	}
	return out
}

func TestPublicListSearchFiltersSortAndPaging(t *testing.T) {
	f := newFixture(t)
	type spec struct {
		title, category string
		tags            []any
		minutes         float64
		featured        bool
		publish         bool
	}
	specs := []spec{
		{"Cirurgia ortopédica em cães", "cirurgia", []any{"ortopedia", "cães"}, 7, true, true},
		{"Procedimento cirúrgico minimamente invasivo", "cirurgia", []any{"laparoscopia"}, 5, false, true},
		{"Vacinação antirrábica: nova campanha", "clinica", []any{"vacinas", "cães"}, 3, false, true},
		{"Mercado pet cresce 12% no ano", "mercado", []any{"economia"}, 4, true, true},
		{"Rascunho sobre cirurgia", "cirurgia", []any{"cães"}, 2, false, false},
	}
	ids := map[string]string{}
	for _, s := range specs {
		f.advance(time.Minute)
		in := newsInput(s.title)
		in.Fields["category"], in.Fields["tags"], in.Fields["reading_time"], in.Fields["featured"] = s.category, s.tags, s.minutes, s.featured
		if s.category == "mercado" {
			in.Fields["event_date"] = "2026-12-01"
		}
		it := f.create(t, in)
		if s.publish {
			it = f.publish(t, it)
		}
		ids[s.title] = it.ID
	}
	list := func(q content.ListQuery) content.Page {
		t.Helper()
		q.Type = "noticias"
		p, err := f.store.List(f.ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		return p
	}
	newestFirst := []string{"Mercado pet cresce 12% no ano", "Vacinação antirrábica: nova campanha",
		"Procedimento cirúrgico minimamente invasivo", "Cirurgia ortopédica em cães"}
	if got := titles(list(content.ListQuery{})); !slices.Equal(got, newestFirst) {
		t.Fatalf("default order %v", got)
	}

	// Portuguese search, accents and case ignored, stems matched.
	for _, q := range []string{"cirurgia", "CIRURGIA", "cirúrgico", "cirurgico", "Cirurgias"} {
		got := titles(list(content.ListQuery{Search: q}))
		if !slices.Equal(got, []string{"Procedimento cirúrgico minimamente invasivo", "Cirurgia ortopédica em cães"}) {
			t.Fatalf("search %q: %v", q, got)
		}
	}
	if got := titles(list(content.ListQuery{Search: "vacinacao"})); !slices.Equal(got, []string{"Vacinação antirrábica: nova campanha"}) {
		t.Fatalf("search without accents: %v", got)
	}
	// The category's label and tags are searchable too.
	if got := titles(list(content.ListQuery{Search: "laparoscopia"})); len(got) != 1 {
		t.Fatalf("search by tag: %v", got)
	}
	if got := titles(list(content.ListQuery{Search: "cirurgia", Sort: "relevance"})); len(got) != 2 || got[0] != "Cirurgia ortopédica em cães" {
		t.Fatalf("relevance: %v", got)
	}
	// Partial words; every word must match; a typo is found by similarity
	// when the words match nothing; operators are only separators.
	for q, want := range map[string][]string{
		"vacina":               {"Vacinação antirrábica: nova campanha"},
		"antirrab":             {"Vacinação antirrábica: nova campanha"},
		"cirurg ortop":         {"Cirurgia ortopédica em cães"},
		"cirurgia mercado":     nil,
		"vacinacão antirabica": {"Vacinação antirrábica: nova campanha"},
		"antirabica":           {"Vacinação antirrábica: nova campanha"},
		"minimamente invasiv":  {"Procedimento cirúrgico minimamente invasivo"},
		"cirurgia | mercado":   nil,
		"&|!:*()'\"":           nil,
	} {
		if got := titles(list(content.ListQuery{Search: q})); !slices.Equal(got, want) {
			t.Errorf("search %q: %v, want %v", q, got, want)
		}
	}
	if _, err := f.store.List(f.ctx, content.ListQuery{Type: "noticias", Search: strings.Repeat("a", 201)}); err == nil {
		t.Error("a search of 201 characters is refused")
	}

	// Filters on filterable fields.
	if got := titles(list(content.ListQuery{Filters: []content.Filter{{Field: "category", Values: []string{"cirurgia", "mercado"}}}})); len(got) != 3 {
		t.Fatalf("category filter: %v", got)
	}
	if got := titles(list(content.ListQuery{Filters: []content.Filter{{Field: "tags", Values: []string{"cães"}}}})); !slices.Equal(got,
		[]string{"Vacinação antirrábica: nova campanha", "Cirurgia ortopédica em cães"}) {
		t.Fatalf("tag filter: %v", got)
	}
	if got := titles(list(content.ListQuery{Filters: []content.Filter{{Field: "featured", Values: []string{"true"}}, {Field: "reading_time", Min: "5"}}})); !slices.Equal(got,
		[]string{"Cirurgia ortopédica em cães"}) {
		t.Fatalf("boolean and range filter: %v", got)
	}
	for _, bad := range []content.Filter{{Field: "body", Values: []string{"x"}}, {Field: "reading_time", Min: "muito"}, {Field: "nope", Values: []string{"x"}}, {Field: "featured", Values: []string{"talvez"}}} {
		if _, err := f.store.List(f.ctx, content.ListQuery{Type: "noticias", Filters: []content.Filter{bad}}); code(err) != core.EINVALID {
			t.Fatalf("filter %+v: %v", bad, err)
		}
	}
	if _, err := f.store.List(f.ctx, content.ListQuery{Type: "noticias", Sort: "body"}); code(err) != core.EINVALID {
		t.Fatalf("sort by a non-sortable field: %v", err)
	}

	// Sort on a sortable field; listed fields only in lists.
	p := list(content.ListQuery{Sort: "-reading_time", Limit: 2, WithTotal: true})
	if got := titles(p); !slices.Equal(got, []string{"Cirurgia ortopédica em cães", "Procedimento cirúrgico minimamente invasivo"}) || p.Total != 4 {
		t.Fatalf("sort by reading time: %v total %d", got, p.Total)
	}
	// Items without the sort field come last both ways.
	for _, sort := range []string{"event_date", "-event_date"} {
		if got := titles(list(content.ListQuery{Sort: sort})); got[0] != "Mercado pet cresce 12% no ano" {
			t.Fatalf("sort %s: %v", sort, got)
		}
	}
	var listed map[string]any
	if err := json.Unmarshal(p.Items[0].Fields, &listed); err != nil || listed["body"] != nil || listed["reading_time"] != 7.0 || listed["category"] != "cirurgia" {
		t.Fatalf("listed fields: %s", p.Items[0].Fields)
	}
	if p := list(content.ListQuery{Offset: 10, WithTotal: true}); p.Total != 4 || len(p.Items) != 0 {
		t.Fatalf("past the end: %+v", p)
	}

	// Keyset paging walks the whole list once, in order.
	var walked []string
	cursor := ""
	for range 10 {
		p := list(content.ListQuery{Limit: 3, Cursor: cursor})
		walked = append(walked, titles(p)...)
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if !slices.Equal(walked, newestFirst) {
		t.Fatalf("keyset walk %v", walked)
	}
	walked = nil
	for cursor = ""; ; {
		p := list(content.ListQuery{Sort: "title", Limit: 1, Cursor: cursor})
		walked = append(walked, titles(p)...)
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if len(walked) != 4 || !slices.IsSorted(walked) {
		t.Fatalf("keyset walk by title %v", walked)
	}
	forged := base64.RawURLEncoding.EncodeToString([]byte(`{"k":"ontem","i":"6f1c8f0e-9a55-4c1e-8a43-5b0f4c4f4a11"}`))
	for _, bad := range []string{"garbage", forged} {
		if _, err := f.store.List(f.ctx, content.ListQuery{Type: "noticias", Cursor: bad}); code(err) != core.EINVALID {
			t.Fatalf("bad cursor %q: %v", bad, err)
		}
	}

	// The reader's flags come in the same query.
	eng := engagement.New(f.pool, engagement.Options{Now: f.now})
	reader := newUser(t, f.pool)
	fav := ids["Vacinação antirrábica: nova campanha"]
	if _, err := eng.SetFavorite(f.ctx, reader, fav, true); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.SetReaction(f.ctx, reader, fav, engagement.ReactionLike); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.SetReaction(f.ctx, newUser(t, f.pool), fav, engagement.ReactionDislike); err != nil {
		t.Fatal(err)
	}
	for _, it := range list(content.ListQuery{ReaderID: reader}).Items {
		e := it.Engagement
		if it.ID == fav {
			if !e.Favorited || e.Reaction != engagement.ReactionLike || e.Favorites != 1 || e.Likes != 1 || e.Dislikes != 1 {
				t.Fatalf("reader's flags: %+v", e)
			}
		} else if e.Favorited || e.Reaction != "" || e.Likes != 0 {
			t.Fatalf("flags on %s: %+v", it.Title, e)
		}
	}
	for _, it := range list(content.ListQuery{}).Items {
		if it.Engagement.Favorited || it.Engagement.Reaction != "" {
			t.Fatalf("anonymous reader has flags: %+v", it.Engagement)
		}
	}
	if got := titles(list(content.ListQuery{ReaderID: reader, OnlyFavorites: true})); !slices.Equal(got, []string{"Vacinação antirrábica: nova campanha"}) {
		t.Fatalf("favorites: %v", got)
	}
	d, err := f.store.GetPublished(f.ctx, "noticias", fav, reader)
	if err != nil || !d.Engagement.Favorited || d.Engagement.Likes != 1 {
		t.Fatalf("detail flags: %+v %v", d.Engagement, err)
	}
	var all map[string]any
	if err := json.Unmarshal(d.Fields, &all); err != nil || all["body"] == nil {
		t.Fatalf("detail fields: %s", d.Fields)
	}
}

func TestAdminListShowsWorkingCopiesInEveryState(t *testing.T) {
	f := newFixture(t)
	for i := range 5 {
		f.advance(time.Minute)
		it := f.create(t, newsInput(fmt.Sprintf("Item %d sobre cirurgia", i)))
		if i%2 == 0 {
			it = f.publish(t, it)
			if i == 4 {
				if _, err := f.store.Update(f.ctx, f.editor(), it.ID, it.Version, newsInput("Item 4 editado")); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	items, total, err := f.store.AdminList(f.ctx, content.AdminQuery{Type: "noticias", Limit: 2})
	if err != nil || total != 5 || len(items) != 2 || items[0].Title != "Item 4 editado" || !items[0].HasDraft {
		t.Fatalf("admin list: %d %+v %v", total, items, err)
	}
	items, total, err = f.store.AdminList(f.ctx, content.AdminQuery{Type: "noticias", Statuses: []content.Status{content.StatusDraft}, Sort: "title"})
	// The edited published item is a draft again (its public snapshot stays).
	if err != nil || total != 3 || items[0].Title != "Item 1 sobre cirurgia" || !items[2].Published || items[2].Title != "Item 4 editado" {
		t.Fatalf("drafts: %d %+v %v", total, items, err)
	}
	if _, total, err := f.store.AdminList(f.ctx, content.AdminQuery{Type: "noticias", Search: "cirúrgica", Offset: 50}); err != nil || total != 4 {
		t.Fatalf("search past the end: total %d %v", total, err)
	}
}
