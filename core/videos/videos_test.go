package videos_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/videos"
)

// Page 1 holds 8 videos, every later page 4 at offset 8+(n−2)×4, newest
// first; has_more says whether another page exists. Filters: category,
// Portuguese search ignoring accents, favorites only, completed only.
func TestPagingFiltersAndSearch(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	clinica := e.category(t, "Clínica", 2, false)
	cirurgia := e.category(t, "Cirurgia", 1, false)
	e.category(t, "Oculta", 0, true)
	var all []string
	for i := range 14 {
		cat := clinica
		title := "Consulta de rotina " + string(rune('A'+i))
		if i%2 == 1 {
			cat, title = cirurgia, "Técnica cirúrgica "+string(rune('A'+i))
		}
		all = append(all, e.video(t, title, cat, nil))
	}
	ortho := e.video(t, "Ortopedia em cães", cirurgia, map[string]any{"tags": []string{"fraturas"}, "instructor": "Dr. João Pereira"})
	all = append(all, ortho)

	// the expected order, straight from the read model
	rows, err := e.srv.App.Pool.Query(ctx, `SELECT item_id::text FROM video_listings WHERE published ORDER BY published_at DESC, item_id DESC`)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		order = append(order, id)
	}
	if len(order) != 15 {
		t.Fatalf("read model has %d videos, want 15", len(order))
	}

	c, _ := e.user(t, "premium")
	want := []struct {
		page, size, offset int
		more               bool
	}{{1, 8, 0, true}, {2, 4, 8, true}, {3, 3, 12, false}, {4, 0, 16, false}}
	for _, w := range want {
		p := list(t, c, "?page="+strconv.Itoa(w.page))
		lim, off := videos.PageWindow(w.page)
		if off != w.offset {
			t.Fatalf("page %d offset %d, want %d", w.page, off, w.offset)
		}
		if len(p.Videos) != w.size || p.HasMore != w.more || p.PageSize != lim {
			t.Fatalf("page %d: %d videos, has_more %v, page_size %d; want %d, %v", w.page, len(p.Videos), p.HasMore, p.PageSize, w.size, w.more)
		}
		if got, exp := ids(p), order[min(w.offset, 15):min(w.offset+w.size, 15)]; !slices.Equal(got, exp) {
			t.Fatalf("page %d ids %v, want %v", w.page, got, exp)
		}
	}
	// page 1 = exactly 8 → has_more only when a 9th exists
	if p := list(t, c, "?category="+clinica); len(p.Videos) != 7 || p.HasMore {
		t.Fatalf("clínica: %d videos has_more %v", len(p.Videos), p.HasMore)
	}
	p := list(t, c, "?category="+cirurgia)
	if len(p.Videos) != 8 || p.HasMore {
		t.Fatalf("cirurgia page 1: %d has_more %v (exactly 8 exist)", len(p.Videos), p.HasMore)
	}
	for _, v := range p.Videos {
		if v.Category == nil || v.Category.ID != cirurgia || v.Category.Name != "Cirurgia" {
			t.Fatalf("category filter let through %+v", v.Category)
		}
	}
	// search: accents and case ignored, over title, tags, instructor, category
	for q, want := range map[string]int{"ortopedia": 1, "FRATURAS": 1, "joao": 1, "tecnica cirurgica": 7, "cirurgia": 8, "inexistente": 0} {
		if got := list(t, c, "?q="+urlq(q)); len(got.Videos) != want {
			t.Fatalf("search %q: %d videos, want %d", q, len(got.Videos), want)
		}
	}
	if got := list(t, c, "?q=ortopedia"); got.Videos[0].ID != ortho || got.Videos[0].Instructor != "Dr. João Pereira" ||
		got.Videos[0].Duration != "10min" || got.Videos[0].DurationSeconds != 600 || got.Videos[0].Thumbnail == nil {
		t.Fatalf("search card: %+v", got.Videos[0])
	}
	// favorites and completed only
	if r := c.Do("POST", "/api/videos/"+all[0]+"/favorito", nil); r.Status != 200 {
		t.Fatalf("favorite: %d %s", r.Status, r.Body)
	}
	if r := c.Do("PUT", "/api/videos/"+all[1]+"/concluido", map[string]bool{"completed": true}); r.Status != 200 {
		t.Fatalf("complete: %d %s", r.Status, r.Body)
	}
	if got := ids(list(t, c, "?favorites=true")); !slices.Equal(got, []string{all[0]}) {
		t.Fatalf("favorites only: %v", got)
	}
	if got := list(t, c, "?completed=true"); len(got.Videos) != 1 || got.Videos[0].ID != all[1] || !got.Videos[0].IsCompleted {
		t.Fatalf("completed only: %+v", got.Videos)
	}
	if got := list(t, c, "?completed=true&category="+clinica); len(got.Videos) != 0 {
		t.Fatalf("completed in clínica: %v", ids(got))
	}
	// categories: active only, by display order
	var cats struct{ Categories []videos.Category }
	c.Do("GET", "/api/videos/categorias", nil).JSON(t, &cats)
	if len(cats.Categories) != 2 || cats.Categories[0].Name != "Cirurgia" || cats.Categories[1].Name != "Clínica" {
		t.Fatalf("categories: %+v", cats.Categories)
	}
	// bad parameters are 422 naming the parameter
	for q, field := range map[string]string{"?page=0": "page", "?category=x": "category", "?favorites=talvez": "favorites"} {
		r := c.Do("GET", "/api/videos"+q, nil)
		if er := errorOf(t, r); r.Status != http.StatusUnprocessableEntity || er.Error.Fields[field] == "" {
			t.Fatalf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	// statistics: 15 videos × 10 min = 2.5 h; 1 completed, 1 favorite
	var st videos.Statistics
	c.Do("GET", "/api/videos/estatisticas", nil).JSON(t, &st)
	if st != (videos.Statistics{TotalVideos: 15, CompletedVideos: 1, FavoriteVideos: 1, ProgressPercentage: 6, TotalHoursContent: 2.5}) {
		t.Fatalf("statistics: %+v", st)
	}
	// home card: the newest video
	var last struct{ Video *videos.Card }
	c.Do("GET", "/api/videos/ultimo", nil).JSON(t, &last)
	if last.Video == nil || last.Video.ID != order[0] {
		t.Fatalf("latest: %+v", last.Video)
	}
}

func urlq(s string) string { return url.QueryEscape(s) }

type clientT = apptest.Client

func contentInput(slug string, fields map[string]any) content.Input {
	return content.Input{Slug: slug, Title: "Vídeo " + slug, Fields: fields}
}

// Videos are for premium and trial users; others see the list locked and
// get 403 premium_required on the player, likes, views, progress and
// completion; favorites stay open to everyone. The generic content API
// does not serve videos.
func TestAccessRules(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v := e.video(t, "Dermatologia felina", "", nil)
	basic, _ := e.user(t, "basic")
	premium, _ := e.user(t, "premium")
	trial, trialID := e.user(t, "trial")

	if p := list(t, basic, ""); len(p.Videos) != 1 || !p.Videos[0].Locked {
		t.Fatalf("basic list: %+v", p.Videos)
	}
	var last struct{ Video *videos.Card }
	basic.Do("GET", "/api/videos/ultimo", nil).JSON(t, &last)
	if last.Video == nil || !last.Video.Locked {
		t.Fatalf("basic home card: %+v", last.Video)
	}
	for _, call := range []struct{ method, path string }{
		{"GET", "/api/videos/" + v}, {"POST", "/api/videos/" + v + "/curtida"}, {"POST", "/api/videos/" + v + "/visualizacao"},
		{"PUT", "/api/videos/" + v + "/progresso"}, {"PUT", "/api/videos/" + v + "/concluido"},
	} {
		var body any
		if strings.HasSuffix(call.path, "/progresso") {
			body = map[string]any{"position_seconds": 10, "duration_seconds": 600, "watched": [][2]float64{{0, 10}}}
		} else if call.method == "PUT" {
			body = map[string]any{"completed": true}
		}
		r := basic.Do(call.method, call.path, body)
		er := errorOf(t, r)
		if r.Status != http.StatusForbidden || er.Error.Fields["access"] != videos.AccessPremium || er.Error.Message != videos.MsgPremium {
			t.Fatalf("basic %s %s: %d %s", call.method, call.path, r.Status, r.Body)
		}
	}
	var fav videos.FavoriteAnswer
	if r := basic.Do("POST", "/api/videos/"+v+"/favorito", nil); r.Status != 200 {
		t.Fatalf("basic favorite: %d %s", r.Status, r.Body)
	} else if r.JSON(t, &fav); !fav.IsFavorite || fav.Message != videos.MsgFavoriteOn {
		t.Fatalf("basic favorite: %+v", fav)
	}

	for name, c := range map[string]*clientT{"premium": premium, "trial": trial} {
		if p := list(t, c, ""); p.Videos[0].Locked {
			t.Fatalf("%s list locked", name)
		}
		r := c.Do("GET", "/api/videos/"+v, nil)
		var d videos.Detail
		if r.Status != 200 {
			t.Fatalf("%s detail: %d %s", name, r.Status, r.Body)
		}
		r.JSON(t, &d)
		if d.Video == nil || d.Video.Source != "youtube" || d.Video.EmbedURL == nil ||
			*d.Video.EmbedURL != "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" || d.Description != "Aula exclusiva sobre Dermatologia felina." {
			t.Fatalf("%s detail: %+v %+v", name, d, d.Video)
		}
	}
	// a trial that ended closes the videos again
	if _, err := e.srv.App.Pool.Exec(ctx, `UPDATE subscribers SET trial_ends_at = now() - interval '1 hour' WHERE user_id = $1`, trialID); err != nil {
		t.Fatal(err)
	}
	if r := trial.Do("GET", "/api/videos/"+v, nil); r.Status != http.StatusForbidden {
		t.Fatalf("expired trial: %d", r.Status)
	}
	// unknown → 404; generic content routes do not serve videos
	if r := premium.Do("GET", "/api/videos/00000000-0000-4000-8000-000000000000", nil); r.Status != 404 || r.ErrorMessage() != videos.MsgNotFound {
		t.Fatalf("unknown: %d %s", r.Status, r.Body)
	}
	if r := premium.Do("GET", "/api/content/videos/"+v, nil); r.Status != 404 {
		t.Fatalf("generic content route served a video: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Client(t).Do("GET", "/api/videos", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("anonymous: %d", r.Status)
	}
}

// 200 concurrent toggles from one reader end exactly where they started
// (even count), and 40 readers liking at once count 40; the count never
// goes below 0. Marking completed 200 times at once keeps one row and one
// completed_at.
func TestTogglesExactUnderConcurrency(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v := e.video(t, "Anestesia inalatória", "", nil)
	c, uid := e.user(t, "premium")

	run := func(n int, fn func(i int)) {
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() { defer wg.Done(); fn(i) }()
		}
		wg.Wait()
	}
	var failed sync.Map
	run(200, func(i int) {
		if r := c.Do("POST", "/api/videos/"+v+"/curtida", nil); r.Status != 200 {
			failed.Store("like", r.Status)
		}
		if r := c.Do("POST", "/api/videos/"+v+"/favorito", nil); r.Status != 200 {
			failed.Store("favorite", r.Status)
		}
		if r := c.Do("PUT", "/api/videos/"+v+"/concluido", map[string]bool{"completed": true}); r.Status != 200 {
			failed.Store("complete", r.Status)
		}
	})
	failed.Range(func(k, v any) bool { t.Fatalf("%v answered %v", k, v); return false })
	var likes, favs, reactions, favRows, completions int
	err := e.srv.App.Pool.QueryRow(ctx, `SELECT likes, favorites,
			(SELECT count(*) FROM engagement_reactions WHERE item_id = $1),
			(SELECT count(*) FROM engagement_favorites WHERE item_id = $1),
			(SELECT count(*) FROM video_completions WHERE video_id = $1 AND user_id = $2)
		FROM engagement_counters WHERE item_id = $1`, v, uid).Scan(&likes, &favs, &reactions, &favRows, &completions)
	if err != nil {
		t.Fatal(err)
	}
	if likes != 0 || favs != 0 || reactions != 0 || favRows != 0 || completions != 1 {
		t.Fatalf("after 200 toggles: likes %d favorites %d reactions %d favorite rows %d completions %d", likes, favs, reactions, favRows, completions)
	}
	// one more like → liked, 1; and marking again keeps the first completed_at
	var la videos.LikeAnswer
	c.Do("POST", "/api/videos/"+v+"/curtida", nil).JSON(t, &la)
	if !la.UserLiked || la.Likes != 1 {
		t.Fatalf("like: %+v", la)
	}
	var a1, a2 videos.CompleteAnswer
	c.Do("PUT", "/api/videos/"+v+"/concluido", map[string]bool{"completed": true}).JSON(t, &a1)
	c.Do("PUT", "/api/videos/"+v+"/concluido", map[string]bool{"completed": true}).JSON(t, &a2)
	if !a1.IsCompleted || a1.CompletedAt == nil || !a1.CompletedAt.Equal(*a2.CompletedAt) || a1.Message != videos.MsgCompletedOn {
		t.Fatalf("mark twice: %+v %+v", a1, a2)
	}
	var un videos.CompleteAnswer
	c.Do("PUT", "/api/videos/"+v+"/concluido", map[string]bool{"completed": false}).JSON(t, &un)
	if un.IsCompleted || un.CompletedAt != nil || un.Message != videos.MsgCompletedOff {
		t.Fatalf("unmark: %+v", un)
	}
	if r := c.Do("PUT", "/api/videos/"+v+"/concluido", map[string]any{}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("missing completed: %d", r.Status)
	}

	// 40 readers like at once: 40; each unlikes: 0, never below
	readers := make([]*clientT, 40)
	for i := range readers {
		readers[i], _ = e.user(t, "premium")
	}
	c.Do("POST", "/api/videos/"+v+"/curtida", nil) // the first reader's like off again
	run(40, func(i int) { readers[i].Do("POST", "/api/videos/"+v+"/curtida", nil) })
	if p := list(t, c, ""); p.Videos[0].Likes != 40 || p.Videos[0].UserLiked {
		t.Fatalf("40 likes: %d (user_liked %v)", p.Videos[0].Likes, p.Videos[0].UserLiked)
	}
	run(40, func(i int) { readers[i].Do("POST", "/api/videos/"+v+"/curtida", nil) })
	if p := list(t, readers[0], ""); p.Videos[0].Likes != 0 || p.Videos[0].UserLiked {
		t.Fatalf("after unliking: %d", p.Videos[0].Likes)
	}
}

// A view counts once per reader per video per 24 h.
func TestViewCounting(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v := e.video(t, "Emergências", "", nil)
	a, aID := e.user(t, "premium")
	b, _ := e.user(t, "trial")
	view := func(c *clientT) videos.ViewAnswer {
		t.Helper()
		r := c.Do("POST", "/api/videos/"+v+"/visualizacao", nil)
		if r.Status != 200 {
			t.Fatalf("view: %d %s", r.Status, r.Body)
		}
		var va videos.ViewAnswer
		r.JSON(t, &va)
		return va
	}
	if va := view(a); !va.Counted || va.Views != 1 {
		t.Fatalf("first view: %+v", va)
	}
	if va := view(a); va.Counted || va.Views != 1 {
		t.Fatalf("again within 24 h: %+v", va)
	}
	if va := view(b); !va.Counted || va.Views != 2 {
		t.Fatalf("another reader: %+v", va)
	}
	if _, err := e.srv.App.Pool.Exec(ctx, `UPDATE engagement_views SET counted_at = counted_at - interval '23 hours' WHERE item_id = $1 AND user_id = $2`, v, aID); err != nil {
		t.Fatal(err)
	}
	if va := view(a); va.Counted {
		t.Fatalf("after 23 h: %+v", va)
	}
	if _, err := e.srv.App.Pool.Exec(ctx, `UPDATE engagement_views SET counted_at = counted_at - interval '2 hours' WHERE item_id = $1 AND user_id = $2`, v, aID); err != nil {
		t.Fatal(err)
	}
	if va := view(a); !va.Counted || va.Views != 3 {
		t.Fatalf("after 25 h: %+v", va)
	}
	// 50 concurrent views from one reader count at most once
	c, _ := e.user(t, "premium")
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); c.Do("POST", "/api/videos/"+v+"/visualizacao", nil) }()
	}
	wg.Wait()
	if p := list(t, c, ""); p.Videos[0].Views != 4 {
		t.Fatalf("after 50 concurrent views: %d, want 4", p.Videos[0].Views)
	}
}

// Completion is automatic at 90 % of the seconds actually watched (merged
// ranges, core/engagement), not the playhead; the player resumes from the
// saved position only between 5 % and 90 %.
func TestWatchedRangeCompletionAndResume(t *testing.T) {
	e := newEnv(t)
	v := e.video(t, "Ultrassonografia abdominal", "", nil) // 600 s
	c, _ := e.user(t, "premium")
	report := func(pos float64, watched [][2]float64) videos.ProgressAnswer {
		t.Helper()
		r := c.Do("PUT", "/api/videos/"+v+"/progresso", map[string]any{"position_seconds": pos, "duration_seconds": 600, "watched": watched})
		if r.Status != 200 {
			t.Fatalf("progress: %d %s", r.Status, r.Body)
		}
		var a videos.ProgressAnswer
		r.JSON(t, &a)
		return a
	}
	if a := report(20, [][2]float64{{0, 20}}); a.ResumeAt != 0 || a.IsCompleted || a.Progress != 3 {
		t.Fatalf("at 20 s (< 5 %%): %+v", a)
	}
	if a := report(300, [][2]float64{{20, 300}}); a.ResumeAt != 300 || a.Progress != 50 {
		t.Fatalf("at 300 s: %+v", a)
	}
	var d videos.Detail
	c.Do("GET", "/api/videos/"+v, nil).JSON(t, &d)
	if d.ResumeAt != 300 || d.PositionSeconds != 300 || len(d.Watched) != 1 || d.Watched[0].End != 300 || d.LastWatchedAt == nil {
		t.Fatalf("detail resume: %+v", d)
	}
	// seeking to the end plays nothing: not completed, resume from 0
	if a := report(590, nil); a.IsCompleted || a.ResumeAt != 0 {
		t.Fatalf("seek to end: %+v", a)
	}
	// 300..540 played: 540 of 600 s = 90 % → completed, once
	a := report(540, [][2]float64{{300, 540}})
	if !a.IsCompleted || !a.JustCompleted || a.CompletedAt == nil || a.Progress != 90 {
		t.Fatalf("at 90 %% watched: %+v", a)
	}
	if a := report(560, [][2]float64{{540, 560}}); !a.IsCompleted || a.JustCompleted {
		t.Fatalf("after completion: %+v", a)
	}
	if p := list(t, c, "?completed=true"); len(p.Videos) != 1 || !p.Videos[0].IsCompleted || p.Videos[0].Progress != 93 {
		t.Fatalf("completed list: %+v", p.Videos)
	}
	// unmarking clears completed_at; later reports do not re-complete
	c.Do("PUT", "/api/videos/"+v+"/concluido", map[string]bool{"completed": false})
	if a := report(600, [][2]float64{{560, 600}}); a.IsCompleted || a.CompletedAt != nil {
		t.Fatalf("after unmark: %+v", a)
	}
	// bad reports are 422
	if r := c.Do("PUT", "/api/videos/"+v+"/progresso", map[string]any{"position_seconds": -1, "watched": [][2]float64{}}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("negative position: %d", r.Status)
	}
	for _, tc := range []struct{ pos, dur, want float64 }{{29, 600, 0}, {30, 600, 30}, {540, 600, 540}, {541, 600, 0}, {15, 0, 15}} {
		if got := videos.ResumeAt(tc.pos, tc.dur); got != tc.want {
			t.Fatalf("ResumeAt(%v, %v) = %v, want %v", tc.pos, tc.dur, got, tc.want)
		}
	}
}

// The plugin refuses an uploaded video (no media pipeline yet) and a video
// without a playable address, and checks addresses when saving.
func TestPluginRefusals(t *testing.T) {
	e := newEnv(t)
	up := e.create(t, videos.TypeVideo, "Vídeo enviado", map[string]any{"video_source": "upload",
		"video_asset": "00000000-0000-4000-8000-000000000001"})
	if _, err := e.publish(up); err == nil || !strings.Contains(err.Error(), "Escolha o vídeo enviado.") {
		t.Fatalf("upload published: %v", err)
	}
	_, _, err := e.srv.App.Content.Store.Create(context.Background(), e.editor, videos.TypeVideo,
		contentInput("ruim", map[string]any{"video_source": "youtube", "youtube_url": "https://example.com/x"}), "")
	var ce *core.Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Fields["youtube_url"], "YouTube") {
		t.Fatalf("bad YouTube address accepted: %v", err)
	}
}

// Search finds partial words without accents ("fluido" → Fluidoterapia, but
// not Fluxo), typos when nothing matches, and survives hostile input.
func TestSearchPartialWordsTyposAndHostileInput(t *testing.T) {
	e := newEnv(t)
	cat := e.category(t, "Clínica", 1, false)
	fluid := e.video(t, "Fluidoterapia em cães", cat, nil)
	e.video(t, "Fluxo de atendimento", cat, nil)
	e.video(t, "Uso de fluconazol", cat, nil)
	c, _ := e.user(t, "premium")
	for q, want := range map[string][]string{
		"fluido":        {fluid},
		"FLUÍDO":        {fluid},
		"fluidoterapa":  {fluid}, // a typo: found by similarity
		"fluido cães":   {fluid},
		"fluido gatos":  {},
		"&|!:*()'\"":    {},
		"fluido' OR '1": {},
	} {
		if got := ids(list(t, c, "?q="+urlq(q))); !slices.Equal(got, want) {
			t.Errorf("search %q: %v, want %v", q, got, want)
		}
	}
	r := c.Do("GET", "/api/videos?q="+urlq(strings.Repeat("á", 201)), nil)
	if r.Status != 422 || errorOf(t, r).Error.Fields["q"] != videos.MsgSearchTooLong {
		t.Errorf("201 characters: %d %s", r.Status, r.Body)
	}
}

// The generic engagement and comment routes apply the player's rule to
// videos: a visitor reads no comments of a video, a basic member neither
// comments nor reacts (to the video or to its comments); a premium member
// does.
func TestGenericEngagementRoutesFollowVideoAccess(t *testing.T) {
	e := newEnv(t)
	v := e.video(t, "Cirurgia avançada", "", nil)
	premium, _ := e.user(t, "premium")
	basic, _ := e.user(t, "basic")
	visitor := e.srv.Client(t)
	base := "/api/content/" + videos.TypeVideo + "/" + v
	res := premium.Do("POST", base+"/comments", map[string]any{"content": "Excelente técnica."})
	if res.Status != http.StatusCreated {
		t.Fatalf("premium comment: %d %s", res.Status, res.Body)
	}
	var comment struct {
		ID string `json:"id"`
	}
	res.JSON(t, &comment)
	if res := premium.Do("GET", base+"/comments", nil); res.Status != http.StatusOK || !strings.Contains(string(res.Body), "Excelente técnica.") {
		t.Fatalf("premium reads comments: %d %s", res.Status, res.Body)
	}
	if res := premium.Do("PUT", base+"/reaction", map[string]any{"value": "like"}); res.Status != http.StatusOK {
		t.Fatalf("premium reacts: %d %s", res.Status, res.Body)
	}
	refused := func(who string, res apptest.Response) {
		t.Helper()
		if res.Status != http.StatusForbidden && res.Status != http.StatusUnauthorized && res.Status != http.StatusNotFound {
			t.Errorf("%s: %d %s", who, res.Status, res.Body)
		}
		if strings.Contains(string(res.Body), "Excelente técnica.") {
			t.Errorf("%s: the comment leaked: %s", who, res.Body)
		}
	}
	refused("visitor reads comments", visitor.Do("GET", base+"/comments", nil))
	refused("basic reads comments", basic.Do("GET", base+"/comments", nil))
	refused("basic comments", basic.Do("POST", base+"/comments", map[string]any{"content": "Sem acesso."}))
	refused("basic reacts", basic.Do("PUT", base+"/reaction", map[string]any{"value": "like"}))
	refused("basic favourites", basic.Do("PUT", base+"/favorite", nil))
	refused("basic reacts to a comment", basic.Do("PUT", "/api/comments/"+comment.ID+"/reaction", map[string]any{"reaction": "like"}))
	if res := premium.Do("PUT", "/api/comments/"+comment.ID+"/reaction", map[string]any{"reaction": "like"}); res.Status != http.StatusOK {
		t.Errorf("premium reacts to a comment: %d %s", res.Status, res.Body)
	}
}
