package search_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/search"
)

// docs builds a table shaped like every searchable listing (a weighted
// vetclube_pt vector and a title) in a freshly migrated database.
func docs(t *testing.T, titles map[string]string) *pgxpool.Pool {
	t.Helper()
	pool := pgtest.New(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `CREATE TABLE docs (kind text NOT NULL, title text NOT NULL, body text NOT NULL,
		search tsvector GENERATED ALWAYS AS (setweight(to_tsvector('vetclube_pt'::regconfig, title), 'A')
			|| setweight(to_tsvector('vetclube_pt'::regconfig, body), 'C')) STORED)`); err != nil {
		t.Fatal(err)
	}
	for title, kind := range titles {
		if _, err := pool.Exec(ctx, `INSERT INTO docs (kind, title, body) VALUES ($1, $2, 'Conteúdo para médicos-veterinários.')`, kind, title); err != nil {
			t.Fatal(err)
		}
	}
	return pool
}

func find(t *testing.T, pool *pgxpool.Pool, kind, input string) []string {
	t.Helper()
	args := []any{kind}
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	m := search.Parse(input).SQL(arg, search.Target{Alias: "d", Table: "docs", Vector: "search", Title: "title", Scope: "kind = $1"})
	rows, err := pool.Query(context.Background(), `SELECT d.title FROM docs d WHERE d.kind = $1 AND `+m.Where+` ORDER BY `+m.Score+` DESC, d.title`, args...)
	if err != nil {
		t.Fatalf("search %q: %v", input, err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatalf("search %q: %v", input, err)
	}
	return got
}

var catalogue = map[string]string{
	"Dermatologia Veterinária Avançada":        "curso",
	"Cardiologia em pequenos animais":          "curso",
	"Fluidoterapia em cães e gatos":            "video",
	"Fluxo de atendimento na recepção":         "video",
	"Uso racional de fluconazol":               "video",
	"Campanha de vacinação antirrábica começa": "noticia",
	"Novas vacinas para felinos":               "noticia",
	"Mercado pet cresce 12% no ano":            "noticia",
	"Congresso de cirurgia ortopédica":         "evento",
	"Workshop de anestesia em pós-operatório":  "evento",
}

// The examples readers tried: partial words and no accents.
func TestPartialWordsAndAccents(t *testing.T) {
	pool := docs(t, catalogue)
	for _, c := range []struct {
		kind, q string
		want    []string
	}{
		{"curso", "dermato", []string{"Dermatologia Veterinária Avançada"}},
		{"curso", "DERMATO", []string{"Dermatologia Veterinária Avançada"}},
		{"curso", "dermatológica", []string{"Dermatologia Veterinária Avançada"}},
		// "fluido" stems to "flu": fluxo and fluconazol must not come along
		{"video", "fluido", []string{"Fluidoterapia em cães e gatos"}},
		{"video", "fluidoterápia", []string{"Fluidoterapia em cães e gatos"}},
		{"noticia", "vacina", []string{"Campanha de vacinação antirrábica começa", "Novas vacinas para felinos"}},
		{"noticia", "vacinação", []string{"Campanha de vacinação antirrábica começa"}},
		{"noticia", "vacinacao", []string{"Campanha de vacinação antirrábica começa"}},
		{"noticia", "vacinaç", []string{"Campanha de vacinação antirrábica começa"}},
		{"evento", "cirurgi", []string{"Congresso de cirurgia ortopédica"}},
		{"evento", "pos operatorio", []string{"Workshop de anestesia em pós-operatório"}},
		// every word must match
		{"video", "fluido gatos", []string{"Fluidoterapia em cães e gatos"}},
		{"video", "fluido cardiologia", nil},
		{"evento", "cirurgia anestesia", nil},
		// other kinds stay out
		{"curso", "vacina", nil},
		// a lone stop word is a prefix like any other word
		{"noticia", "no", []string{"Novas vacinas para felinos"}},
	} {
		if got := find(t, pool, c.kind, c.q); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: %v, want %v", c.kind, c.q, got, c.want)
		}
	}
}

// Typos are found by similarity only when the words match nothing of that
// kind: a real match is never diluted by look-alikes.
func TestTypoFallback(t *testing.T) {
	pool := docs(t, catalogue)
	for _, c := range []struct {
		kind, q string
		want    []string
	}{
		{"curso", "dermatolgia", []string{"Dermatologia Veterinária Avançada"}},
		{"curso", "cardiolojia", []string{"Cardiologia em pequenos animais"}},
		{"video", "fluidoterapa", []string{"Fluidoterapia em cães e gatos"}},
		{"noticia", "antirabica", []string{"Campanha de vacinação antirrábica começa"}},
		// a word whose stem matches is a match, not a typo
		{"noticia", "vacinasao", []string{"Novas vacinas para felinos", "Campanha de vacinação antirrábica começa"}},
		// "flu" matches "fluxo" and "fluconazol" as words: no fallback mixed in
		{"video", "fluxo", []string{"Fluxo de atendimento na recepção"}},
		// too short for similarity
		{"curso", "drm", nil},
		{"curso", "zzzzzzzz", nil},
	} {
		if got := find(t, pool, c.kind, c.q); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: %v, want %v", c.kind, c.q, got, c.want)
		}
	}
}

// Nothing a reader types breaks the query or changes its structure.
func TestHostileInput(t *testing.T) {
	pool := docs(t, catalogue)
	all := len(find(t, pool, "noticia", ""))
	if all != 3 {
		t.Fatalf("empty search: %d rows, want every noticia (3)", all)
	}
	if got := find(t, pool, "noticia", "   "); len(got) != 3 {
		t.Errorf("blank search: %v", got)
	}
	for _, q := range []string{
		`'`, `''`, `"`, `\`, `&|!:*()`, `!vacina`, `vacina:*`, `vacina & !felinos`, `vacina | mercado`,
		`'vacina':* | 'mercado'`, `(vacina`, `vacina)`, `vacina<->felinos`, `vacina' OR '1'='1`, `%_`, "vacina\x00",
	} {
		got := find(t, pool, "noticia", q)
		for _, title := range got {
			if !strings.Contains(strings.ToLower(title), "vacina") {
				t.Errorf("%q found %q", q, title)
			}
		}
	}
	// a placeholder is text: "$1" is the word "1", a prefix of "12"
	if got := find(t, pool, "noticia", "$1"); !slices.Equal(got, []string{"Mercado pet cresce 12% no ano"}) {
		t.Errorf("$1: %v", got)
	}
	if got := find(t, pool, "noticia", `&|!:*()`); len(got) != 0 {
		t.Errorf("punctuation only matches nothing: %v", got)
	}
	// operators are separators, not operators: "vacina | mercado" needs both words
	if got := find(t, pool, "noticia", "vacina | mercado"); len(got) != 0 {
		t.Errorf("| is no OR: %v", got)
	}
	if got := find(t, pool, "noticia", "vacina & !felinos"); !slices.Equal(got, []string{"Novas vacinas para felinos"}) {
		t.Errorf("! is no NOT: %v", got)
	}
	long := strings.Repeat("vacinação ", 500) + strings.Repeat("x", 10_000)
	if got := find(t, pool, "noticia", long); !slices.Equal(got, []string{"Campanha de vacinação antirrábica começa"}) {
		t.Errorf("very long search: %v", got)
	}
	if !search.TooLong(strings.Repeat("a", search.MaxLength+1)) || search.TooLong(strings.Repeat("ç", search.MaxLength)) {
		t.Error("TooLong counts characters")
	}
	// one very long word is cut to 40 characters, not refused; repeated, it
	// still looks like the word it repeats
	if got := find(t, pool, "curso", strings.Repeat("dermatologia", 20)); !slices.Equal(got, []string{"Dermatologia Veterinária Avançada"}) {
		t.Errorf("long word: %v", got)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"  Dermato  ":          "dermato",
		"vacina&|!:*()felinos": "vacina felinos",
		"pós-operatório":       "pós operatório",
		"'a' \"b\" c":          "a b c",
		"um dois três quatro cinco seis sete oito nove dez": "um dois três quatro cinco seis sete oito",
	} {
		if got := search.Parse(in).Words(); got != want {
			t.Errorf("Parse(%q) = %q, want %q", in, got, want)
		}
	}
	if search.Parse("").Given() || !search.Parse("!!").Given() || search.Parse("   ").Given() {
		t.Error("Given: typed anything non-blank")
	}
}
