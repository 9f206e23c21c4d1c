package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Migrations create the plugin's own tables: the projection of the
// published diseases the tool searches, and each member's favourites.
//
// The projection holds the published snapshot the core hands to
// AfterPublish, with the names and the text folded (lower case, no
// accents) by fold below: unaccent() is only STABLE, so it cannot feed a
// generated column, and folding here keeps the plugin independent of where
// the core installed it. Typos are matched with pg_trgm's word_similarity
// (the extension lives in the core's public schema, created by its
// migrations; its functions are executable by every role).
var Migrations = []sdk.Migration{{Version: 1, Name: "diseases", SQL: `
CREATE TABLE diseases (
    item_id           text PRIMARY KEY,
    slug              text NOT NULL,
    name              text NOT NULL,
    summary           text NOT NULL DEFAULT '',
    fields            jsonb NOT NULL,
    species           text[] NOT NULL DEFAULT '{}',
    body_system       text NOT NULL DEFAULT '',
    zoonotic          boolean NOT NULL DEFAULT false,
    notifiable        boolean NOT NULL DEFAULT false,
    names_folded      text NOT NULL,
    body_folded       text NOT NULL,
    version           integer NOT NULL,
    updated_at        timestamptz NOT NULL DEFAULT now(),
    search            tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, names_folded), 'A') ||
        setweight(to_tsvector('simple'::regconfig, body_folded), 'C')) STORED
);
CREATE INDEX diseases_slug_idx ON diseases (slug);
CREATE INDEX diseases_search_idx ON diseases USING gin (search);
CREATE TABLE favorites (
    user_id    text NOT NULL,
    item_id    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, item_id)
);`}}

// bodyFields are the text fields the search reads besides the names; the
// projection also reads species, synonyms, body_system, agent_type,
// zoonotic and notifiable (projectedFields lists them all, and a test
// checks each is declared by the type).
var bodyFields = []string{"agent", "transmission", "sinais_clinicos", "diagnostico", "tratamento", "prevencao", "notification_note"}

var projectedFields = append([]string{"species", "synonyms", "body_system", "agent_type", "zoonotic", "notifiable"}, bodyFields...)

// AfterPublish copies the published item into the projection. A late call
// carrying an older version never overwrites a newer one.
func AfterPublish(ctx context.Context, host *sdk.Host, it sdk.ContentItem) error {
	if it.Type != TypeID {
		return nil
	}
	return project(ctx, host, it)
}

func project(ctx context.Context, host *sdk.Host, it sdk.ContentItem) error {
	fields, err := json.Marshal(it.Fields)
	if err != nil {
		return fmt.Errorf("encode fields: %w", err)
	}
	species, _ := json.Marshal(strs(it.Fields["species"]))
	zoonotic, _ := it.Fields["zoonotic"].(bool)
	notifiable, _ := it.Fields["notifiable"].(bool)
	names := append([]string{it.Title}, strs(it.Fields["synonyms"])...)
	var body []string
	body = append(body, it.Summary)
	for _, f := range bodyFields {
		body = append(body, str(it.Fields[f]))
	}
	body = append(body, label(Systems, str(it.Fields["body_system"])), label(AgentTypes, str(it.Fields["agent_type"])))
	for _, s := range strs(it.Fields["species"]) {
		body = append(body, label(Species, s))
	}
	_, err = host.Exec(ctx, `INSERT INTO diseases (item_id, slug, name, summary, fields, species, body_system, zoonotic, notifiable,
			names_folded, body_folded, version, updated_at)
		VALUES ($1, $2, $3, $4, $5::jsonb, ARRAY(SELECT jsonb_array_elements_text($6::jsonb)), $7, $8, $9, $10, $11, $12, now())
		ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, name = EXCLUDED.name, summary = EXCLUDED.summary,
			fields = EXCLUDED.fields, species = EXCLUDED.species, body_system = EXCLUDED.body_system, zoonotic = EXCLUDED.zoonotic,
			notifiable = EXCLUDED.notifiable, names_folded = EXCLUDED.names_folded, body_folded = EXCLUDED.body_folded,
			version = EXCLUDED.version, updated_at = now()
		WHERE diseases.version <= EXCLUDED.version`,
		it.ID, it.Slug, it.Title, it.Summary, string(fields), string(species), str(it.Fields["body_system"]), zoonotic, notifiable,
		fold(strings.Join(names, " ")), fold(strings.Join(body, "\n")), it.Version)
	if err != nil {
		return fmt.Errorf("project disease %s: %w", it.ID, err)
	}
	return nil
}

// BeforeTransition takes a published disease out of the projection when
// the move unpublishes it: archiving it, "Despublicar" on a published
// item (it becomes a draft), or "Despublicar" on a published item whose
// pending draft keeps its state. It never refuses a move. (The core tells
// plugins of publications, not of withdrawals, so this hook is the only
// moment; if the move then fails, the next publish puts the disease back.)
func BeforeTransition(ctx context.Context, host *sdk.Host, it sdk.ContentItem, to string) (string, error) {
	if it.Type != TypeID || !it.Published || it.ID == "" {
		return "", nil
	}
	unpublish := to == "arquivado" ||
		(it.Status == "publicado" && to == "rascunho") ||
		(to == it.Status && to != "agendado" && to != "publicado")
	if !unpublish {
		return "", nil
	}
	if _, err := host.Exec(ctx, `DELETE FROM diseases WHERE item_id = $1`, it.ID); err != nil {
		return "", fmt.Errorf("withdraw disease %s: %w", it.ID, err)
	}
	return "", nil
}

func strs(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return []string{}
}

// foldMap takes the accents off the letters Portuguese (and Spanish and
// French loanwords) use.
var foldMap = map[rune]rune{
	'á': 'a', 'à': 'a', 'â': 'a', 'ã': 'a', 'ä': 'a', 'å': 'a',
	'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'í': 'i', 'ì': 'i', 'î': 'i', 'ï': 'i',
	'ó': 'o', 'ò': 'o', 'ô': 'o', 'õ': 'o', 'ö': 'o',
	'ú': 'u', 'ù': 'u', 'û': 'u', 'ü': 'u',
	'ç': 'c', 'ñ': 'n', 'ý': 'y', 'ÿ': 'y', 'µ': 'u',
}

// fold lower-cases s and removes accents and combining marks, keeping
// letters, digits and single spaces: "Doença de Carré" → "doenca de carre".
func fold(s string) string {
	var b strings.Builder
	space := true
	for _, r := range strings.ToLower(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if m, ok := foldMap[r]; ok {
			r = m
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
			continue
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSpace(b.String())
}
