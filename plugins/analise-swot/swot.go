package main

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Manifest describes the SWOT tool.
var Manifest = sdk.Manifest{
	ID:             "analise-swot",
	Name:           "Análise SWOT",
	Description:    "Organize forças, fraquezas, oportunidades e ameaças da sua clínica ou carreira e imprima o resultado.",
	Version:        "1.0.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "layout-grid",
	Category:       "Gestão",
	Slug:           "analise-swot",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UICustom,
}

// Migrations create the plugin's table in its own schema.
var Migrations = []sdk.Migration{{Version: 1, Name: "analyses", SQL: `
CREATE TABLE analyses (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid NOT NULL,
    title      text NOT NULL CHECK (title <> '' AND char_length(title) <= 120),
    quadrants  jsonb NOT NULL,
    version    integer NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analyses_user_idx ON analyses (user_id, updated_at DESC);`}}

// Quadrants are the four ordered lists; order is the user's.
type Quadrants struct {
	Strengths     []string `json:"strengths"`
	Weaknesses    []string `json:"weaknesses"`
	Opportunities []string `json:"opportunities"`
	Threats       []string `json:"threats"`
}

// Analysis is one saved SWOT.
type Analysis struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Quadrants Quadrants `json:"quadrants"`
	Version   int       `json:"version"`
	CreatedAt string    `json:"created_at"`
	UpdatedAt string    `json:"updated_at"`
}

type input struct {
	Title     string    `json:"title"`
	Quadrants Quadrants `json:"quadrants"`
	// Version is the one the user edited; a stale one is refused (409).
	Version int `json:"version"`
}

const (
	maxItems   = 50
	maxItemLen = 500
)

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func (in *input) validate() sdk.Problems {
	p := sdk.Problems{}
	in.Title = strings.TrimSpace(in.Title)
	switch {
	case in.Title == "":
		p.Add("title", "Dê um título à análise.")
	case utf8.RuneCountInString(in.Title) > 120:
		p.Add("title", "O título deve ter no máximo 120 caracteres.")
	}
	clean := func(field string, items []string) []string {
		out := []string{}
		for _, it := range items {
			it = strings.TrimSpace(it)
			if it == "" {
				continue
			}
			if utf8.RuneCountInString(it) > maxItemLen {
				p.Add(field, "Cada item deve ter no máximo 500 caracteres.")
			}
			out = append(out, it)
		}
		if len(out) > maxItems {
			p.Add(field, "Cada quadrante aceita no máximo 50 itens.")
		}
		return out
	}
	q := &in.Quadrants
	q.Strengths = clean("strengths", q.Strengths)
	q.Weaknesses = clean("weaknesses", q.Weaknesses)
	q.Opportunities = clean("opportunities", q.Opportunities)
	q.Threats = clean("threats", q.Threats)
	return p
}

const columns = `id::text AS id, title, quadrants, version, created_at, updated_at`

// Handler serves the SWOT API for the signed-in user only.
func Handler(host *sdk.Host) http.Handler {
	s := &store{host: host}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /analyses", func(w http.ResponseWriter, r *http.Request) {
		list, err := s.list(r.Context(), sdk.UserFrom(r.Context()).ID)
		if err != nil {
			fail(w, host, err)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"analyses": list})
	})
	mux.HandleFunc("POST /analyses", func(w http.ResponseWriter, r *http.Request) {
		var in input
		if !sdk.DecodeJSON(w, r, &in) || in.validate().Respond(w) {
			return
		}
		a, err := s.create(r.Context(), sdk.UserFrom(r.Context()).ID, in)
		if err != nil {
			fail(w, host, err)
			return
		}
		sdk.WriteJSON(w, http.StatusCreated, a)
	})
	mux.HandleFunc("GET /analyses/{id}", func(w http.ResponseWriter, r *http.Request) {
		a, found, err := s.get(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err != nil {
			fail(w, host, err)
			return
		}
		if !found {
			notFound(w)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, a)
	})
	mux.HandleFunc("PUT /analyses/{id}", func(w http.ResponseWriter, r *http.Request) {
		var in input
		if !sdk.DecodeJSON(w, r, &in) || in.validate().Respond(w) {
			return
		}
		user, id := sdk.UserFrom(r.Context()).ID, r.PathValue("id")
		a, updated, err := s.update(r.Context(), user, id, in)
		if err != nil {
			fail(w, host, err)
			return
		}
		if !updated {
			if _, found, err := s.get(r.Context(), user, id); err == nil && found {
				sdk.WriteError(w, http.StatusConflict, "Esta análise foi alterada em outra janela. Recarregue a página para ver a versão mais recente.", nil)
				return
			}
			notFound(w)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, a)
	})
	mux.HandleFunc("DELETE /analyses/{id}", func(w http.ResponseWriter, r *http.Request) {
		deleted, err := s.delete(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err != nil {
			fail(w, host, err)
			return
		}
		if !deleted {
			notFound(w)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

func notFound(w http.ResponseWriter) {
	sdk.WriteError(w, http.StatusNotFound, "Análise não encontrada.", nil)
}

func fail(w http.ResponseWriter, host *sdk.Host, err error) {
	host.Logger().Error("swot storage failed", "err", err)
	// A busy or unavailable core answers 429/503 with its own message; any
	// other failure is ours (500).
	sdk.WriteHostError(w, err, "Não foi possível salvar ou carregar a análise. Tente novamente.")
}

type store struct{ host *sdk.Host }

func (s *store) list(ctx context.Context, user string) ([]Analysis, error) {
	out := []Analysis{}
	err := s.host.Query(ctx, &out, `SELECT `+columns+` FROM analyses WHERE user_id = $1::uuid ORDER BY updated_at DESC, id LIMIT 200`, user)
	return out, err
}

func (s *store) get(ctx context.Context, user, id string) (Analysis, bool, error) {
	if !uuidPattern.MatchString(id) {
		return Analysis{}, false, nil
	}
	var rows []Analysis
	err := s.host.Query(ctx, &rows, `SELECT `+columns+` FROM analyses WHERE id = $1::uuid AND user_id = $2::uuid`, id, user)
	if err != nil || len(rows) == 0 {
		return Analysis{}, false, err
	}
	return rows[0], true, nil
}

func (s *store) create(ctx context.Context, user string, in input) (Analysis, error) {
	var rows []Analysis
	err := s.host.Query(ctx, &rows, `INSERT INTO analyses (user_id, title, quadrants) VALUES ($1::uuid, $2, $3::jsonb) RETURNING `+columns,
		user, in.Title, in.Quadrants)
	if err != nil {
		return Analysis{}, err
	}
	return rows[0], nil
}

// update writes only if the analysis is the user's and still at the version
// they edited, so two tabs cannot silently overwrite each other.
func (s *store) update(ctx context.Context, user, id string, in input) (Analysis, bool, error) {
	if !uuidPattern.MatchString(id) {
		return Analysis{}, false, nil
	}
	var rows []Analysis
	err := s.host.Query(ctx, &rows, `
		UPDATE analyses SET title = $3, quadrants = $4::jsonb, version = version + 1, updated_at = now()
		WHERE id = $1::uuid AND user_id = $2::uuid AND version = $5
		RETURNING `+columns, id, user, in.Title, in.Quadrants, in.Version)
	if err != nil || len(rows) == 0 {
		return Analysis{}, false, err
	}
	return rows[0], true, nil
}

func (s *store) delete(ctx context.Context, user, id string) (bool, error) {
	if !uuidPattern.MatchString(id) {
		return false, nil
	}
	n, err := s.host.Exec(ctx, `DELETE FROM analyses WHERE id = $1::uuid AND user_id = $2::uuid`, id, user)
	return n == 1, err
}
