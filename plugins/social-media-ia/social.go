package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/sdk"
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// Prompts are the AI templates (prompts/*.tmpl).
var Prompts = func() fs.FS { f, _ := fs.Sub(promptFiles, "prompts"); return f }()

// Manifest describes the tool.
var Manifest = sdk.Manifest{
	ID:             "social-media-ia",
	Name:           "Social Media IA",
	Description:    "Posts para Instagram, Facebook, status do WhatsApp e LinkedIn da sua clínica, com hashtags, chamada para ação e calendário semanal.",
	Version:        "1.0.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "wrench",
	Category:       "Marketing",
	Slug:           "social-media-ia",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UICustom,
}

// Migrations create the plugin's tables in its own schema.
var Migrations = []sdk.Migration{{Version: 1, Name: "profiles and posts", SQL: `
CREATE TABLE clinic_profiles (
    user_id     uuid PRIMARY KEY,
    name        text NOT NULL DEFAULT '' CHECK (char_length(name) <= 120),
    city        text NOT NULL DEFAULT '' CHECK (char_length(city) <= 120),
    services    text NOT NULL DEFAULT '' CHECK (char_length(services) <= 500),
    whatsapp    text NOT NULL DEFAULT '' CHECK (char_length(whatsapp) <= 20),
    responsible text NOT NULL DEFAULT '' CHECK (char_length(responsible) <= 160),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE posts (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid NOT NULL,
    client_id  uuid,
    kind       text NOT NULL CHECK (kind IN ('post', 'calendario')),
    network    text NOT NULL,
    topic      text NOT NULL,
    audience   text NOT NULL,
    tone       text NOT NULL,
    content    jsonb NOT NULL,
    favorite   boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, client_id)
);
CREATE INDEX posts_user_idx ON posts (user_id, created_at DESC);`}}

// Network is a social network and its limits: the whole text ready to copy
// (text, call to action and hashtags) stays within MaxChars.
type Network struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	MaxChars    int    `json:"max_chars"`
	MaxHashtags int    `json:"max_hashtags"`
}

// Networks: Instagram captions stop at 2,200 characters, a WhatsApp status
// text at 700, a LinkedIn post at 3,000; Facebook allows far more, but a
// clinic's post is kept to 2,000.
var Networks = []Network{
	{"instagram", "Instagram", 2200, 10},
	{"facebook", "Facebook", 2000, 3},
	{"whatsapp", "Status do WhatsApp", 700, 0},
	{"linkedin", "LinkedIn", 3000, 5},
}

// Option is one choice of a list.
type Option struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	// Note is the advertising rule a topic touches (pt-BR), if any.
	Note string `json:"note,omitempty"`
}

// Topics; the notes name the CFMV advertising rule a topic comes close to
// (Res. 1.138/2016 and Res. 1.649/2025).
var Topics = []Option{
	{"vacinacao", "Campanha de vacinação", "Não divulgue preço nem condição de pagamento da vacina (CFMV)."},
	{"sazonal", "Cuidados da estação (calor, frio, chuvas)", ""},
	{"odontologia", "Mês da saúde bucal", "Sem fotos de antes/depois de pacientes sem autorização do tutor (CFMV)."},
	{"adocao", "Adoção responsável", ""},
	{"curiosidade", "Curiosidade clínica", "Informe sem ensinar ao público procedimentos privativos do médico-veterinário (CFMV)."},
	{"servicos", "Serviços da clínica", "Sem preços, descontos, \"grátis\" ou promoções, e sem prometer resultados (CFMV)."},
	{"prevencao", "Prevenção (vermífugos, ectoparasitas, check-up)", "Sem nome de medicamento com dose em posts para tutores."},
	{"castracao", "Castração", "Sem preços de procedimento que exige avaliação clínica prévia (CFMV)."},
	{"equipe", "Conheça a equipe", ""},
}

// Audiences are lay owners: no post to them names a drug with its dose.
var Audiences = []Option{
	{"tutores-caes", "Tutores de cães", ""},
	{"tutores-gatos", "Tutores de gatos", ""},
	{"tutores-exoticos", "Tutores de pets exóticos", ""},
	{"produtores-rurais", "Produtores rurais", ""},
}

// Tones of voice.
var Tones = []Option{
	{"acolhedor", "Acolhedor", ""}, {"educativo", "Educativo", ""}, {"divertido", "Divertido", ""},
	{"profissional", "Profissional", ""}, {"urgente", "Alerta (sem sensacionalismo)", ""},
}

// AdvertisingNote is shown with every post.
const AdvertisingNote = "Publicidade veterinária (CFMV, Res. 1.138/2016 e 1.649/2025): sem preços, promoções ou \"grátis\", sem promessa de cura ou resultado, " +
	"sem antes/depois de pacientes sem autorização do tutor; identifique o responsável técnico e o CRMV do estabelecimento."

// DoseRemoved says a sentence with a drug dose was taken out.
const DoseRemoved = "Removemos do texto um trecho com dose de medicamento: posts para tutores não trazem posologia."

func find(list []Option, id string) (Option, bool) {
	for _, o := range list {
		if o.ID == id {
			return o, true
		}
	}
	return Option{}, false
}

func network(id string) (Network, bool) {
	for _, n := range Networks {
		if n.ID == id {
			return n, true
		}
	}
	return Network{}, false
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// dosePattern finds a dose or concentration: a number with a unit of mass,
// volume or activity, optionally per kg, per dose or per day.
var dosePattern = regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg|g|ml|mL|ui|UI|gotas?|comprimidos?|cp)\b(?:\s?/\s?(?:kg|dia|dose|ml))?`)

// stripDoses drops each sentence holding a dose.
func stripDoses(s string) (string, bool) {
	if !dosePattern.MatchString(s) {
		return s, false
	}
	sentences := regexp.MustCompile(`[^.!?\n]+[.!?]*\s*|\n`).FindAllString(s, -1)
	var b strings.Builder
	for _, sen := range sentences {
		if !dosePattern.MatchString(sen) {
			b.WriteString(sen)
		}
	}
	return strings.TrimSpace(b.String()), true
}

func clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	cut := string(r[:n-1])
	if i := strings.LastIndexAny(cut, ".!?"); i > len(cut)/2 {
		return cut[:i+1]
	}
	if i := strings.LastIndex(cut, " "); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "…"
}

var hashtagPattern = regexp.MustCompile(`^#[\p{L}\p{N}_]{1,60}$`)

func cleanTags(tags []string, max int) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, t := range tags {
		t = strings.TrimSpace(t)
		if t != "" && !strings.HasPrefix(t, "#") {
			t = "#" + t
		}
		t = strings.ReplaceAll(t, " ", "")
		if !hashtagPattern.MatchString(t) || seen[strings.ToLower(t)] || len(out) >= max {
			continue
		}
		seen[strings.ToLower(t)] = true
		out = append(out, t)
	}
	return out
}

// Post is a generated post ready to copy.
type Post struct {
	Text       string   `json:"texto"`
	Hashtags   []string `json:"hashtags"`
	CTA        string   `json:"cta"`
	Image      string   `json:"sugestao_imagem"`
	Variations []string `json:"variacoes"`
	// Full is text, call to action and hashtags as they are pasted.
	Full  string   `json:"completo"`
	Notes []string `json:"avisos"`
}

func full(text, cta string, tags []string) string {
	parts := []string{strings.TrimSpace(text)}
	if cta != "" {
		parts = append(parts, cta)
	}
	if len(tags) > 0 {
		parts = append(parts, strings.Join(tags, " "))
	}
	return strings.Join(parts, "\n\n")
}

// shape enforces the network's limits on a model's post and the dose rule.
func shape(p Post, n Network, topic Option) Post {
	var dosed bool
	p.Hashtags = cleanTags(p.Hashtags, n.MaxHashtags)
	p.CTA = clip(p.CTA, 200)
	p.Image = clip(p.Image, 400)
	var d bool
	if p.Text, d = stripDoses(p.Text); d {
		dosed = true
	}
	if p.CTA, d = stripDoses(p.CTA); d {
		dosed = true
	}
	room := n.MaxChars - utf8.RuneCountInString(full("", p.CTA, p.Hashtags)) - 2
	p.Text = clip(p.Text, room)
	vars := []string{}
	for _, v := range p.Variations {
		if v, d = stripDoses(v); d {
			dosed = true
		}
		if v = clip(v, room); v != "" && len(vars) < 3 {
			vars = append(vars, v)
		}
	}
	p.Variations = vars
	p.Full = full(p.Text, p.CTA, p.Hashtags)
	p.Notes = []string{AdvertisingNote}
	if topic.Note != "" {
		p.Notes = append(p.Notes, topic.Note)
	}
	if dosed {
		p.Notes = append(p.Notes, DoseRemoved)
	}
	return p
}

// CalendarDay is one post of the weekly calendar.
type CalendarDay struct {
	Day      string   `json:"dia"`
	Topic    string   `json:"tema"`
	Text     string   `json:"texto"`
	Hashtags []string `json:"hashtags"`
	Full     string   `json:"completo"`
}

// Profile is the clinic's details, reused in every post.
type Profile struct {
	Name        string `json:"name"`
	City        string `json:"city"`
	Services    string `json:"services"`
	WhatsApp    string `json:"whatsapp"`
	Responsible string `json:"responsible"`
}

var phonePattern = regexp.MustCompile(`^\+?[0-9 ()-]{8,20}$`)

func (p *Profile) validate() sdk.Problems {
	pr := sdk.Problems{}
	check := func(field, label string, v *string, max int) {
		*v = strings.Join(strings.Fields(*v), " ")
		if utf8.RuneCountInString(*v) > max {
			pr.Add(field, label+" deve ter no máximo "+itoa(max)+" caracteres.")
		}
	}
	check("name", "O nome da clínica", &p.Name, 120)
	check("city", "A cidade", &p.City, 120)
	check("services", "A lista de serviços", &p.Services, 500)
	check("responsible", "O responsável técnico", &p.Responsible, 160)
	p.WhatsApp = strings.TrimSpace(p.WhatsApp)
	if p.WhatsApp != "" && !phonePattern.MatchString(p.WhatsApp) {
		pr.Add("whatsapp", "Informe o WhatsApp com DDD, só números (ex.: 11 91234-5678).")
	}
	return pr
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Request is what the member asks for.
type Request struct {
	Network  string `json:"network"`
	Topic    string `json:"topic"`
	Audience string `json:"audience"`
	Tone     string `json:"tone"`
	Details  string `json:"details"`
	// UseProfile adds the saved clinic profile to the prompt.
	UseProfile bool   `json:"use_profile"`
	ClientID   string `json:"client_id"`
}

func (r *Request) validate() (Network, Option, sdk.Problems) {
	p := sdk.Problems{}
	n, ok := network(r.Network)
	if !ok {
		p.Add("network", "Escolha a rede social.")
	}
	topic, ok := find(Topics, r.Topic)
	if !ok {
		p.Add("topic", "Escolha o tema.")
	}
	if _, ok := find(Audiences, r.Audience); !ok {
		p.Add("audience", "Escolha o público.")
	}
	if _, ok := find(Tones, r.Tone); !ok {
		p.Add("tone", "Escolha o tom.")
	}
	r.Details = strings.TrimSpace(r.Details)
	if utf8.RuneCountInString(r.Details) > 500 {
		p.Add("details", "Os detalhes devem ter no máximo 500 caracteres.")
	}
	if r.ClientID != "" && !uuidPattern.MatchString(r.ClientID) {
		p.Add("client_id", "Identificador inválido.")
	}
	return n, topic, p
}

// Saved is a post or a calendar in the member's history.
type Saved struct {
	ID        string          `json:"id"`
	Kind      string          `json:"kind"`
	Network   string          `json:"network"`
	Topic     string          `json:"topic"`
	Audience  string          `json:"audience"`
	Tone      string          `json:"tone"`
	Content   json.RawMessage `json:"content"`
	Favorite  bool            `json:"favorite"`
	CreatedAt string          `json:"created_at"`
}

const savedColumns = `id::text AS id, kind, network, topic, audience, tone, content, favorite, created_at`

var errNotFound = errors.New("not found")

type store struct{ host *sdk.Host }

func (s *store) profile(ctx context.Context, userID string) (Profile, error) {
	var rows []Profile
	err := s.host.Query(ctx, &rows, `SELECT name, city, services, whatsapp, responsible FROM clinic_profiles WHERE user_id = $1`, userID)
	if err != nil || len(rows) == 0 {
		return Profile{}, err
	}
	return rows[0], nil
}

func (s *store) saveProfile(ctx context.Context, userID string, p Profile) error {
	_, err := s.host.Exec(ctx, `INSERT INTO clinic_profiles (user_id, name, city, services, whatsapp, responsible) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (user_id) DO UPDATE SET name = $2, city = $3, services = $4, whatsapp = $5, responsible = $6, updated_at = now()`,
		userID, p.Name, p.City, p.Services, p.WhatsApp, p.Responsible)
	return err
}

func (s *store) byClient(ctx context.Context, userID, clientID string) (*Saved, error) {
	if clientID == "" {
		return nil, nil
	}
	var rows []Saved
	if err := s.host.Query(ctx, &rows, `SELECT `+savedColumns+` FROM posts WHERE user_id = $1 AND client_id = $2`, userID, clientID); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}

func (s *store) insert(ctx context.Context, userID string, r Request, kind string, content any) (Saved, error) {
	b, err := json.Marshal(content)
	if err != nil {
		return Saved{}, err
	}
	var cid any
	if r.ClientID != "" {
		cid = r.ClientID
	}
	var rows []Saved
	err = s.host.Query(ctx, &rows, `INSERT INTO posts (user_id, client_id, kind, network, topic, audience, tone, content)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
		ON CONFLICT (user_id, client_id) DO UPDATE SET client_id = EXCLUDED.client_id
		RETURNING `+savedColumns, userID, cid, kind, r.Network, r.Topic, r.Audience, r.Tone, string(b))
	if err != nil {
		return Saved{}, err
	}
	return rows[0], nil
}

func (s *store) list(ctx context.Context, userID string, favorites bool) ([]Saved, error) {
	rows := []Saved{}
	q := `SELECT ` + savedColumns + ` FROM posts WHERE user_id = $1`
	if favorites {
		q += ` AND favorite`
	}
	err := s.host.Query(ctx, &rows, q+` ORDER BY created_at DESC, id LIMIT 100`, userID)
	return rows, err
}

func (s *store) get(ctx context.Context, userID, id string) (Saved, error) {
	if !uuidPattern.MatchString(id) {
		return Saved{}, errNotFound
	}
	var rows []Saved
	if err := s.host.Query(ctx, &rows, `SELECT `+savedColumns+` FROM posts WHERE id = $1 AND user_id = $2`, id, userID); err != nil {
		return Saved{}, err
	}
	if len(rows) == 0 {
		return Saved{}, errNotFound
	}
	return rows[0], nil
}

func (s *store) setFavorite(ctx context.Context, userID, id string, fav bool) (Saved, error) {
	if !uuidPattern.MatchString(id) {
		return Saved{}, errNotFound
	}
	var rows []Saved
	if err := s.host.Query(ctx, &rows, `UPDATE posts SET favorite = $3 WHERE id = $1 AND user_id = $2 RETURNING `+savedColumns, id, userID, fav); err != nil {
		return Saved{}, err
	}
	if len(rows) == 0 {
		return Saved{}, errNotFound
	}
	return rows[0], nil
}

func (s *store) delete(ctx context.Context, userID, id string) error {
	if !uuidPattern.MatchString(id) {
		return errNotFound
	}
	n, err := s.host.Exec(ctx, `DELETE FROM posts WHERE id = $1 AND user_id = $2`, id, userID)
	if err == nil && n == 0 {
		return errNotFound
	}
	return err
}
