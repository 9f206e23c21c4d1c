package main

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Limits of the list.
const (
	MaxQuery        = 200 // characters of a search
	DefaultPageSize = 20
	MaxPageSize     = 50
	MaxPage         = 1000
	maxWords        = 8
	maxWordLen      = 40
	// typoSimilarity is the least pg_trgm word similarity between the
	// search and a disease's names for a typo to find it ("sinomose",
	// "cinomoze" → cinomose score about 0.67; unrelated names stay below
	// 0.3). Only searches of minTypoLen characters or more use it.
	typoSimilarity = 0.5
	minTypoLen     = 4
)

// Messages members read.
const (
	MsgQueryTooLong  = "A busca deve ter no máximo 200 caracteres."
	MsgQueryControl  = "A busca contém caracteres de controle não permitidos."
	MsgBadFilters    = "Verifique os filtros destacados."
	MsgBadSpecies    = "Escolha uma espécie da lista."
	MsgBadSystem     = "Escolha um sistema da lista."
	MsgBadBool       = "Use true ou false."
	MsgBadPage       = "A página deve ser um número entre 1 e 1000."
	MsgBadPageSize   = "O tamanho da página deve ser um número entre 1 e 50."
	MsgNotFound      = "Doença não encontrada."
	MsgNotFavorite   = "Esta doença não está nos seus favoritos."
	MsgSignInNeeded  = "Entre na sua conta para usar os favoritos."
	MsgListFailed    = "Não foi possível buscar as doenças. Tente novamente."
	MsgDetailFailed  = "Não foi possível abrir a doença. Tente novamente."
	MsgFavoriteError = "Não foi possível atualizar seus favoritos. Tente novamente."
)

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Handler serves the tool's API (paths relative to /api/tools/doencas).
// Other paths and methods get the router's plain 404 and 405, which the
// core turns into its pt-BR error shape.
func Handler(host *sdk.Host) http.Handler {
	s := server{host}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /opcoes", s.options)
	mux.HandleFunc("GET /doencas", s.list)
	mux.HandleFunc("GET /doencas/{slug}", s.detail)
	mux.HandleFunc("PUT /doencas/{slug}/favorito", s.favorite)
	mux.HandleFunc("DELETE /doencas/{slug}/favorito", s.unfavorite)
	return mux
}

type server struct{ host *sdk.Host }

// Option is a filter choice.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

func options(opts []sdk.ContentOption) []Option {
	out := make([]Option, len(opts))
	for i, o := range opts {
		out[i] = Option(o)
	}
	return out
}

func (s server) options(w http.ResponseWriter, _ *http.Request) {
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"species": options(Species), "systems": options(Systems)})
}

// Summary is a disease in the list.
type Summary struct {
	Slug       string   `json:"slug"`
	Name       string   `json:"name"`
	Summary    string   `json:"summary"`
	Synonyms   []string `json:"synonyms"`
	Species    []Option `json:"species"`
	System     Option   `json:"system"`
	Zoonotic   bool     `json:"zoonotic"`
	Notifiable bool     `json:"notifiable"`
	Favorite   bool     `json:"favorite"`
	Notify     string   `json:"notification_list,omitempty"`
}

// filters is a validated list request.
type filters struct {
	text, tsquery        string
	species, system      string
	zoonotic, notifiable string // "", "true" or "false"
	favorites            bool
	page, pageSize       int
}

func parseBool(v string) (string, bool) {
	switch v {
	case "", "true", "false":
		return v, true
	}
	return "", false
}

func readFilters(r *http.Request) (filters, int, string, map[string]string) {
	q := r.URL.Query()
	f := filters{page: 1, pageSize: DefaultPageSize}
	raw := q.Get("q")
	if utf8.RuneCountInString(raw) > MaxQuery {
		return f, http.StatusUnprocessableEntity, MsgQueryTooLong, map[string]string{"q": MsgQueryTooLong}
	}
	if sdk.HasControlCharacter(raw) || strings.ContainsAny(raw, "\t\r\n") || !utf8.ValidString(raw) {
		return f, http.StatusUnprocessableEntity, MsgQueryControl, map[string]string{"q": MsgQueryControl}
	}
	f.text, f.tsquery = searchTerms(raw)
	bad := map[string]string{}
	if f.species = q.Get("especie"); f.species != "" && label(Species, f.species) == "" {
		bad["especie"] = MsgBadSpecies
	}
	if f.system = q.Get("sistema"); f.system != "" && label(Systems, f.system) == "" {
		bad["sistema"] = MsgBadSystem
	}
	var ok bool
	if f.zoonotic, ok = parseBool(q.Get("zoonotica")); !ok {
		bad["zoonotica"] = MsgBadBool
	}
	if f.notifiable, ok = parseBool(q.Get("notificavel")); !ok {
		bad["notificavel"] = MsgBadBool
	}
	fav, ok := parseBool(q.Get("favoritas"))
	if !ok {
		bad["favoritas"] = MsgBadBool
	}
	f.favorites = fav == "true"
	if v := q.Get("pagina"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPage {
			bad["pagina"] = MsgBadPage
		}
		f.page = n
	}
	if v := q.Get("por_pagina"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPageSize {
			bad["por_pagina"] = MsgBadPageSize
		}
		f.pageSize = n
	}
	if len(bad) > 0 {
		return f, http.StatusUnprocessableEntity, MsgBadFilters, bad
	}
	return f, 0, "", nil
}

// searchTerms folds what the member typed into words of letters and digits
// (at most 8 of at most 40 characters): text for the trigram match, and a
// tsquery where every word must start a word of the disease. Only quoted
// folded letters and digits reach the tsquery, so no input changes its
// structure.
func searchTerms(raw string) (text, tsquery string) {
	words := strings.Fields(fold(raw))
	if len(words) > maxWords {
		words = words[:maxWords]
	}
	parts := make([]string, 0, len(words))
	for i, w := range words {
		if r := []rune(w); len(r) > maxWordLen {
			w = string(r[:maxWordLen])
			words[i] = w
		}
		parts = append(parts, "'"+w+"':*")
	}
	return strings.Join(words, " "), strings.Join(parts, " & ")
}

type row struct {
	Slug       string          `json:"slug"`
	Name       string          `json:"name"`
	Summary    string          `json:"summary"`
	Fields     json.RawMessage `json:"fields"`
	Favorite   bool            `json:"favorite"`
	Total      int             `json:"total"`
	ItemID     string          `json:"item_id"`
	Zoonotic   bool            `json:"zoonotic"`
	Notifiable bool            `json:"notifiable"`
}

type diseaseFields struct {
	Synonyms         []string `json:"synonyms"`
	Species          []string `json:"species"`
	BodySystem       string   `json:"body_system"`
	AgentType        string   `json:"agent_type"`
	Agent            string   `json:"agent"`
	Transmission     string   `json:"transmission"`
	Signs            string   `json:"sinais_clinicos"`
	Diagnosis        string   `json:"diagnostico"`
	Treatment        string   `json:"tratamento"`
	Prevention       string   `json:"prevencao"`
	NotificationList string   `json:"notification_list"`
	NotificationNote string   `json:"notification_note"`
	WOAHListed       bool     `json:"woah_listed"`
	References       string   `json:"references"`
}

func (r row) summary() (Summary, diseaseFields) {
	var f diseaseFields
	_ = json.Unmarshal(r.Fields, &f)
	out := Summary{Slug: r.Slug, Name: r.Name, Summary: r.Summary, Synonyms: f.Synonyms, Zoonotic: r.Zoonotic,
		Notifiable: r.Notifiable, Favorite: r.Favorite, Notify: f.NotificationList,
		System: Option{Value: f.BodySystem, Label: label(Systems, f.BodySystem)}}
	if out.Synonyms == nil {
		out.Synonyms = []string{}
	}
	out.Species = []Option{}
	for _, s := range f.Species {
		if l := label(Species, s); l != "" {
			out.Species = append(out.Species, Option{Value: s, Label: l})
		}
	}
	return out, f
}

// listSQL finds published diseases: with a search, those whose names or
// text hold every word as a word start (full text over folded text), or
// whose names are similar to the search (typos); ranked by names first.
// Filters narrow; the member's favourites are theirs only.
const listFrom = `
  FROM diseases d
  LEFT JOIN favorites f ON f.item_id = d.item_id AND f.user_id = $1
 WHERE ($2 = '' OR d.search @@ to_tsquery('simple', $2)
        OR (char_length($3) >= $9 AND public.word_similarity($3, d.names_folded) >= $10))
   AND ($4 = '' OR $4 = ANY (d.species))
   AND ($5 = '' OR d.body_system = $5)
   AND ($6 = '' OR d.zoonotic = ($6 = 'true'))
   AND ($7 = '' OR d.notifiable = ($7 = 'true'))
   AND (NOT $8 OR f.item_id IS NOT NULL)`

const listSQL = `
SELECT d.item_id, d.slug, d.name, d.summary, d.fields, d.zoonotic, d.notifiable,
       (f.item_id IS NOT NULL) AS favorite, count(*) OVER () AS total` + listFrom + `
 ORDER BY CASE WHEN $2 = '' THEN 0
               ELSE ts_rank(setweight(to_tsvector('simple', d.names_folded), 'A'), to_tsquery('simple', $2))
                    + public.word_similarity($3, d.names_folded) END DESC,
          d.name, d.item_id
 LIMIT $11 OFFSET $12`

// countSQL counts the same rows (a page past the end still says how many).
const countSQL = `SELECT count(*) AS total` + listFrom

func (s server) list(w http.ResponseWriter, r *http.Request) {
	f, status, msg, bad := readFilters(r)
	if status != 0 {
		sdk.WriteError(w, status, msg, bad)
		return
	}
	user := sdk.UserFrom(r.Context()).ID
	if f.favorites && user == "" {
		sdk.WriteError(w, http.StatusUnauthorized, MsgSignInNeeded, nil)
		return
	}
	args := []any{user, f.tsquery, f.text, f.species, f.system, f.zoonotic, f.notifiable, f.favorites, minTypoLen, typoSimilarity}
	var rows []row
	err := s.host.Query(r.Context(), &rows, listSQL, append(args, f.pageSize, (f.page-1)*f.pageSize)...)
	if err != nil {
		s.host.Logger().Error("list diseases", "err", err)
		sdk.WriteHostError(w, err, MsgListFailed)
		return
	}
	items := make([]Summary, 0, len(rows))
	total := 0
	for _, r := range rows {
		sum, _ := r.summary()
		items = append(items, sum)
		total = r.Total
	}
	if len(rows) == 0 && f.page > 1 {
		var n []struct {
			Total int `json:"total"`
		}
		if err := s.host.Query(r.Context(), &n, countSQL, args...); err != nil {
			s.host.Logger().Error("count diseases", "err", err)
			sdk.WriteHostError(w, err, MsgListFailed)
			return
		}
		if len(n) == 1 {
			total = n[0].Total
		}
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": items, "total": total, "page": f.page, "page_size": f.pageSize})
}

// Detail is a disease's page.
type Detail struct {
	Summary
	AgentType    Option       `json:"agent_type"`
	Agent        string       `json:"agent"`
	Transmission string       `json:"transmission"`
	Signs        string       `json:"clinical_signs"`
	Diagnosis    string       `json:"diagnosis"`
	Treatment    string       `json:"treatment"`
	Prevention   string       `json:"prevention"`
	Notification Notification `json:"notification"`
	WOAHListed   bool         `json:"woah_listed"`
	References   []string     `json:"references"`
}

// Notification is what a vet must do about a notifiable disease.
type Notification struct {
	Required bool   `json:"required"`
	List     string `json:"list,omitempty"`
	Label    string `json:"label,omitempty"`
	Deadline string `json:"deadline,omitempty"`
	Note     string `json:"note,omitempty"`
}

func (s server) find(r *http.Request, slug string) (row, bool, error) {
	if !slugPattern.MatchString(slug) || len(slug) > 200 {
		return row{}, false, nil
	}
	var rows []row
	err := s.host.Query(r.Context(), &rows, `
		SELECT d.item_id, d.slug, d.name, d.summary, d.fields, d.zoonotic, d.notifiable, (f.item_id IS NOT NULL) AS favorite, 1 AS total
		  FROM diseases d LEFT JOIN favorites f ON f.item_id = d.item_id AND f.user_id = $2
		 WHERE d.slug = $1 ORDER BY d.updated_at DESC LIMIT 1`, slug, sdk.UserFrom(r.Context()).ID)
	if err != nil || len(rows) == 0 {
		return row{}, false, err
	}
	return rows[0], true, nil
}

func (s server) detail(w http.ResponseWriter, r *http.Request) {
	d, ok, err := s.find(r, r.PathValue("slug"))
	if err != nil {
		s.host.Logger().Error("disease detail", "err", err)
		sdk.WriteHostError(w, err, MsgDetailFailed)
		return
	}
	if !ok {
		sdk.WriteError(w, http.StatusNotFound, MsgNotFound, nil)
		return
	}
	sum, f := d.summary()
	out := Detail{Summary: sum, Agent: f.Agent, Transmission: f.Transmission, Signs: f.Signs, Diagnosis: f.Diagnosis,
		Treatment: f.Treatment, Prevention: f.Prevention, WOAHListed: f.WOAHListed, References: referenceLines(f.References),
		AgentType:    Option{Value: f.AgentType, Label: label(AgentTypes, f.AgentType)},
		Notification: Notification{Required: d.Notifiable, Note: strings.TrimSpace(f.NotificationNote)}}
	if d.Notifiable && f.NotificationList != "" {
		out.Notification.List = f.NotificationList
		out.Notification.Label = label(NotificationLists, f.NotificationList)
		out.Notification.Deadline = NotificationDeadline[f.NotificationList]
	}
	if out.References == nil {
		out.References = []string{}
	}
	sdk.WriteJSON(w, http.StatusOK, out)
}

// favorite adds the disease to the member's favourites (idempotent).
func (s server) favorite(w http.ResponseWriter, r *http.Request) {
	s.setFavorite(w, r, true)
}

// unfavorite removes it; a disease that is not among the member's
// favourites answers 404.
func (s server) unfavorite(w http.ResponseWriter, r *http.Request) {
	s.setFavorite(w, r, false)
}

func (s server) setFavorite(w http.ResponseWriter, r *http.Request, on bool) {
	user := sdk.UserFrom(r.Context()).ID
	if user == "" {
		sdk.WriteError(w, http.StatusUnauthorized, MsgSignInNeeded, nil)
		return
	}
	d, ok, err := s.find(r, r.PathValue("slug"))
	if err != nil {
		s.host.Logger().Error("favorite: find disease", "err", err)
		sdk.WriteHostError(w, err, MsgFavoriteError)
		return
	}
	if !ok {
		sdk.WriteError(w, http.StatusNotFound, MsgNotFound, nil)
		return
	}
	if on {
		_, err = s.host.Exec(r.Context(), `INSERT INTO favorites (user_id, item_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, user, d.ItemID)
	} else {
		var n int64
		n, err = s.host.Exec(r.Context(), `DELETE FROM favorites WHERE user_id = $1 AND item_id = $2`, user, d.ItemID)
		if err == nil && n == 0 {
			sdk.WriteError(w, http.StatusNotFound, MsgNotFavorite, nil)
			return
		}
	}
	if err != nil {
		s.host.Logger().Error("favorite", "err", err)
		sdk.WriteHostError(w, err, MsgFavoriteError)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"slug": d.Slug, "favorite": on})
}
