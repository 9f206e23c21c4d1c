package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/vetclube/vetclube/plugins/sdk"
)

const (
	msgLoad     = "Não foi possível carregar seus posts. Tente novamente."
	msgSave     = "Não foi possível salvar. Tente novamente."
	msgGenerate = "Não foi possível gerar o post. Tente novamente."
	msgNotFound = "Post não encontrado."
	msgBadAI    = "A IA devolveu uma resposta incompleta. Tente gerar de novo."
)

func fail(w http.ResponseWriter, err error, message string) {
	if errors.Is(err, errNotFound) {
		sdk.WriteError(w, http.StatusNotFound, msgNotFound, nil)
		return
	}
	sdk.WriteHostError(w, err, message)
}

// Handler serves the tool's API, each member's own data only.
func Handler(host *sdk.Host) http.Handler {
	s := &store{host: host}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /options", func(w http.ResponseWriter, r *http.Request) {
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"networks": Networks, "topics": Topics, "audiences": Audiences, "tones": Tones,
			"advertising_note": AdvertisingNote})
	})
	mux.HandleFunc("GET /profile", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.profile(r.Context(), sdk.UserFrom(r.Context()).ID)
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, p)
	})
	mux.HandleFunc("PUT /profile", func(w http.ResponseWriter, r *http.Request) {
		var p Profile
		if !sdk.DecodeJSON(w, r, &p) {
			return
		}
		if p.validate().Respond(w) {
			return
		}
		if err := s.saveProfile(r.Context(), sdk.UserFrom(r.Context()).ID, p); err != nil {
			fail(w, err, msgSave)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, p)
	})
	mux.HandleFunc("POST /posts", func(w http.ResponseWriter, r *http.Request) { generate(w, r, s, "post") })
	mux.HandleFunc("POST /calendar", func(w http.ResponseWriter, r *http.Request) { generate(w, r, s, "calendario") })
	mux.HandleFunc("GET /posts", func(w http.ResponseWriter, r *http.Request) {
		list, err := s.list(r.Context(), sdk.UserFrom(r.Context()).ID, r.URL.Query().Get("favorites") == "1")
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"posts": list})
	})
	mux.HandleFunc("GET /posts/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.get(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, p)
	})
	mux.HandleFunc("PUT /posts/{id}/favorite", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Favorite *bool `json:"favorite"`
		}
		if !sdk.DecodeJSON(w, r, &in) {
			return
		}
		if in.Favorite == nil {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Diga se o post é favorito.", map[string]string{"favorite": "Obrigatório."})
			return
		}
		p, err := s.setFavorite(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"), *in.Favorite)
		if err != nil {
			fail(w, err, msgSave)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, p)
	})
	mux.HandleFunc("DELETE /posts/{id}", func(w http.ResponseWriter, r *http.Request) {
		if err := s.delete(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id")); err != nil {
			fail(w, err, msgSave)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

func generate(w http.ResponseWriter, r *http.Request, s *store, kind string) {
	ctx := r.Context()
	user := sdk.UserFrom(ctx).ID
	var in Request
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	if kind == "calendario" && in.Topic == "" {
		in.Topic = "prevencao"
	}
	n, topic, problems := in.validate()
	if problems.Respond(w) {
		return
	}
	// A retried request (same client_id) answers what the first one saved.
	if prev, err := s.byClient(ctx, user, in.ClientID); err != nil {
		fail(w, err, msgGenerate)
		return
	} else if prev != nil {
		sdk.WriteJSON(w, http.StatusOK, prev)
		return
	}
	aud, _ := find(Audiences, in.Audience)
	tone, _ := find(Tones, in.Tone)
	vars := map[string]string{
		"rede": n.Label, "limite": strconv.Itoa(n.MaxChars - 300), "max_hashtags": strconv.Itoa(n.MaxHashtags),
		"tema": topic.Label, "publico": aud.Label, "tom": tone.Label, "detalhes": in.Details,
		"clinica": "", "cidade": "", "servicos": "", "whatsapp": "", "responsavel": "",
	}
	if kind == "calendario" {
		vars["limite"] = strconv.Itoa(min(n.MaxChars-300, 600))
	}
	if in.UseProfile {
		p, err := s.profile(ctx, user)
		if err != nil {
			fail(w, err, msgGenerate)
			return
		}
		vars["clinica"], vars["cidade"], vars["servicos"], vars["whatsapp"], vars["responsavel"] = p.Name, p.City, p.Services, p.WhatsApp, p.Responsible
	}
	res, err := s.host.AI.Generate(ctx, sdk.AIRequest{Template: kind, Vars: vars})
	if err != nil {
		sdk.WriteAIError(w, err, msgGenerate)
		return
	}
	if res.Refused {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "A IA recusou o pedido: "+res.Reason, nil)
		return
	}
	var content any
	if kind == "post" {
		var p Post
		if json.Unmarshal([]byte(res.Text), &p) != nil || p.Text == "" {
			sdk.WriteError(w, http.StatusBadGateway, msgBadAI, nil)
			return
		}
		content = shape(p, n, topic)
	} else {
		cal, ok := shapeCalendar(res.Text, n)
		if !ok {
			sdk.WriteError(w, http.StatusBadGateway, msgBadAI, nil)
			return
		}
		content = map[string]any{"posts": cal, "avisos": []string{AdvertisingNote}}
	}
	saved, err := s.insert(ctx, user, in, kind, content)
	if err != nil {
		fail(w, err, msgSave)
		return
	}
	sdk.WriteJSON(w, http.StatusCreated, map[string]any{"post": saved, "remaining": res.Remaining, "demo": res.Demo})
}

func shapeCalendar(text string, n Network) ([]CalendarDay, bool) {
	var in struct {
		Posts []CalendarDay `json:"posts"`
	}
	if json.Unmarshal([]byte(text), &in) != nil || len(in.Posts) < 7 {
		return nil, false
	}
	out := in.Posts[:7]
	for i := range out {
		d := &out[i]
		d.Day, d.Topic = clip(d.Day, 40), clip(d.Topic, 160)
		d.Hashtags = cleanTags(d.Hashtags, n.MaxHashtags)
		d.Text, _ = stripDoses(d.Text)
		d.Text = clip(d.Text, n.MaxChars-len(full("", "", d.Hashtags))-2)
		d.Full = full(d.Text, "", d.Hashtags)
	}
	return out, true
}

// exportUser is the member's data in this tool (LGPD): the clinic profile
// and every post and calendar, as JSON.
func exportUser(ctx context.Context, host *sdk.Host, userID string) (map[string][]byte, error) {
	s := &store{host: host}
	p, err := s.profile(ctx, userID)
	if err != nil {
		return nil, err
	}
	posts := []Saved{}
	if err := host.Query(ctx, &posts, `SELECT `+savedColumns+` FROM posts WHERE user_id = $1 ORDER BY created_at`, userID); err != nil {
		return nil, err
	}
	pb, _ := json.MarshalIndent(p, "", "  ")
	ps, _ := json.MarshalIndent(posts, "", "  ")
	return map[string][]byte{"social-media-ia/perfil-da-clinica.json": pb, "social-media-ia/posts.json": ps}, nil
}

// deleteUser erases the member's data in this tool (LGPD).
func deleteUser(ctx context.Context, host *sdk.Host, userID string) error {
	if _, err := host.Exec(ctx, `DELETE FROM posts WHERE user_id = $1`, userID); err != nil {
		return err
	}
	_, err := host.Exec(ctx, `DELETE FROM clinic_profiles WHERE user_id = $1`, userID)
	return err
}
