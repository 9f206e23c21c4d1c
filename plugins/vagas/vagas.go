package main

import (
	"context"
	"net/mail"
	"net/url"
	"strings"
	"time"
	_ "time/tzdata" // the closing day is judged in Brasília time on any machine

	"github.com/vetclube/vetclube/plugins/sdk"
)

// TypeID is the jobs content type; core/jobs reads its published snapshots
// (the field names below are its contract, which
// TestProjectionReadsDeclaredFields checks against job_listings_sync).
const TypeID = "vagas"

// States are Brazil's 26 states and the Federal District (UF).
var States = opts("AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI",
	"RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO")

// Workplaces: remote, hybrid, on site.
var Workplaces = []sdk.ContentOption{
	{Value: "remoto", Label: "Remoto"}, {Value: "hibrido", Label: "Híbrido"}, {Value: "presencial", Label: "Presencial"},
}

// Contracts a job may offer.
var Contracts = []sdk.ContentOption{
	{Value: "clt", Label: "CLT"}, {Value: "pj", Label: "PJ"}, {Value: "estagio", Label: "Estágio"},
	{Value: "residencia", Label: "Residência"}, {Value: "plantao", Label: "Plantão"}, {Value: "freelance", Label: "Freelance"},
}

// Areas are the species or fields of work.
var Areas = []sdk.ContentOption{
	{Value: "pequenos_animais", Label: "Pequenos animais"}, {Value: "grandes_animais", Label: "Grandes animais"},
	{Value: "equinos", Label: "Equinos"}, {Value: "silvestres_exoticos", Label: "Silvestres e exóticos"},
	{Value: "aves_suinos", Label: "Aves e suínos"}, {Value: "saude_publica", Label: "Saúde pública"},
	{Value: "laboratorio", Label: "Laboratório e diagnóstico"}, {Value: "industria", Label: "Indústria e comercial"},
	{Value: "ensino_pesquisa", Label: "Ensino e pesquisa"},
}

// ApplyKinds are how a candidate applies: an external link, an e-mail, or
// in VetClube (profile and optional CV).
var ApplyKinds = []sdk.ContentOption{
	{Value: "link", Label: "Link externo"}, {Value: "email", Label: "E-mail"}, {Value: "vetclube", Label: "Candidatura no VetClube"},
}

// MaxSalary bounds a salary figure (R$ per month): anything above is a typo.
const MaxSalary = 1_000_000

// Zone is where a job's closing day ends (Brasília time).
const Zone = "America/Sao_Paulo"

func opts(values ...string) []sdk.ContentOption {
	out := make([]sdk.ContentOption, len(values))
	for i, v := range values {
		out[i] = sdk.ContentOption{Value: v, Label: v}
	}
	return out
}

// JobType is the declaration the core registers.
var JobType = sdk.ContentType{
	ID: TypeID, Singular: "Vaga", Plural: "Vagas", Icon: "briefcase",
	Route: "/oportunidades",
	Fields: []sdk.ContentField{
		{Name: "organization", Label: "Empresa / instituição", Kind: sdk.ContentText, Required: true, Max: sdk.Bound(160),
			Listed: true, Searchable: true},
		{Name: "city", Label: "Cidade", Kind: sdk.ContentText, Required: true, Max: sdk.Bound(120), Listed: true, Filterable: true, Searchable: true},
		{Name: "state", Label: "Estado (UF)", Kind: sdk.ContentSelect, Required: true, Options: States, Listed: true, Filterable: true},
		{Name: "workplace", Label: "Modelo de trabalho", Kind: sdk.ContentSelect, Required: true, Options: Workplaces, Listed: true, Filterable: true},
		{Name: "contract", Label: "Contrato", Kind: sdk.ContentSelect, Required: true, Options: Contracts, Listed: true, Filterable: true},
		{Name: "area", Label: "Área / espécies", Kind: sdk.ContentSelect, Required: true, Options: Areas, Listed: true, Filterable: true},
		{Name: "specialty", Label: "Especialidade", Kind: sdk.ContentText, Max: sdk.Bound(120), Listed: true, Searchable: true},
		{Name: "salary_min", Label: "Salário mínimo (R$/mês)", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(MaxSalary), Listed: true,
			Help: "Vazio com o máximo vazio: 'a combinar'."},
		{Name: "salary_max", Label: "Salário máximo (R$/mês)", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(MaxSalary), Listed: true},
		{Name: "requirements", Label: "Requisitos", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(10), Max: sdk.Bound(20000), Searchable: true,
			Help: "Markdown: formação, experiência, CRMV ativo, jornada."},
		{Name: "crmv_required", Label: "Exige CRMV ativo", Kind: sdk.ContentBoolean, Listed: true,
			Help: "O exercício da profissão exige inscrição no CRMV (Lei 5.517/1968)."},
		{Name: "apply_kind", Label: "Como se candidatar", Kind: sdk.ContentSelect, Required: true, Options: ApplyKinds, Listed: true},
		{Name: "apply_value", Label: "Link ou e-mail da candidatura", Kind: sdk.ContentText, Max: sdk.Bound(500),
			Help: "Link https:// ou e-mail; vazio para candidatura no VetClube."},
		{Name: "closes_at", Label: "Inscrições até", Kind: sdk.ContentDate, Required: true, Listed: true, Sortable: true, Filterable: true,
			Help: "A vaga sai do ar ao fim deste dia (horário de Brasília)."},
		{Name: "featured", Label: "Destaque", Kind: sdk.ContentBoolean, Listed: true, Filterable: true},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "closes_at"}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest: sdk.Manifest{
			ID: TypeID, Name: "Oportunidades",
			Description: "Vagas de emprego, residências e plantões para médicos-veterinários, com candidatura no VetClube.",
			Version:     "1.0.0", MinCoreVersion: "1.0.0",
			Kind: sdk.KindContent, Icon: "briefcase",
			ContentTypes: []sdk.ContentType{JobType},
		},
		Content: sdk.ContentHooks{ValidateContent: Validate, BeforeTransition: BeforeTransition},
	}
}

// Messages editors read beside the fields.
const (
	MsgSalaryRange   = "O salário máximo deve ser maior ou igual ao mínimo."
	MsgSalaryWhole   = "Informe o salário em reais, sem centavos."
	MsgApplyLink     = "Informe um link https:// válido para a candidatura."
	MsgApplyEmail    = "Informe um e-mail válido para a candidatura."
	MsgApplyNoValue  = "Deixe vazio: a candidatura é feita no VetClube."
	MsgClosesInPast  = "A data de encerramento já passou: escolha uma data futura antes de publicar."
	MsgClosesBadDate = "Informe a data de encerramento no formato AAAA-MM-DD."
)

// Validate is the ValidateContent hook: a sane salary range (max ≥ min,
// whole reais), and the way to apply matching its kind (an https link, a
// valid e-mail, or nothing for VetClube).
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	lo, hasLo := it.Fields["salary_min"].(float64)
	hi, hasHi := it.Fields["salary_max"].(float64)
	for name, v := range map[string]float64{"salary_min": lo, "salary_max": hi} {
		if v != float64(int64(v)) {
			errs[name] = MsgSalaryWhole
		}
	}
	if hasLo && hasHi && hi < lo {
		errs["salary_max"] = MsgSalaryRange
	}
	value := strings.TrimSpace(str(it.Fields["apply_value"]))
	switch str(it.Fields["apply_kind"]) {
	case "link":
		if u, err := url.Parse(value); err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
			errs["apply_value"] = MsgApplyLink
		}
	case "email":
		if a, err := mail.ParseAddress(value); err != nil || a.Address != value || !strings.Contains(value[strings.LastIndex(value, "@")+1:], ".") {
			errs["apply_value"] = MsgApplyEmail
		}
	case "vetclube":
		if value != "" {
			errs["apply_value"] = MsgApplyNoValue
		}
	}
	if len(errs) > 0 {
		return sdk.ContentCheck{Errors: errs}, nil
	}
	return sdk.ContentCheck{}, nil
}

// now is the clock BeforeTransition judges closing days by (tests move it).
var now = time.Now

// ClosesAt is the moment a job closing on day (YYYY-MM-DD) goes offline:
// the end of that day in Brasília time.
func ClosesAt(day string) (time.Time, error) {
	zone, err := time.LoadLocation(Zone)
	if err != nil {
		return time.Time{}, err
	}
	d, err := time.ParseInLocation(time.DateOnly, day, zone)
	if err != nil {
		return time.Time{}, err
	}
	return d.AddDate(0, 0, 1), nil
}

// BeforeTransition refuses publishing (or scheduling) a job whose closing
// day has ended: it would go offline at once.
func BeforeTransition(_ context.Context, _ *sdk.Host, it sdk.ContentItem, to string) (string, error) {
	if to != "publicado" && to != "agendado" {
		return "", nil
	}
	end, err := ClosesAt(str(it.Fields["closes_at"]))
	if err != nil {
		return MsgClosesBadDate, nil
	}
	if !end.After(now()) {
		return MsgClosesInPast, nil
	}
	return "", nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
