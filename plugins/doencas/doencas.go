package main

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// TypeID is the diseases content type (the assistant's retrieval in
// core/ai reads its published items by this id and field names).
const TypeID = "doencas"

// Species a disease affects (a disease may affect several).
var Species = []sdk.ContentOption{
	{Value: "caes", Label: "Cães"},
	{Value: "gatos", Label: "Gatos"},
	{Value: "equinos", Label: "Equinos"},
	{Value: "bovinos", Label: "Bovinos"},
	{Value: "pequenos-ruminantes", Label: "Ovinos e caprinos"},
	{Value: "suinos", Label: "Suínos"},
	{Value: "aves", Label: "Aves"},
	{Value: "exoticos", Label: "Silvestres e exóticos"},
}

// Systems are the body system a disease mainly affects.
var Systems = []sdk.ContentOption{
	{Value: "multissistemico", Label: "Multissistêmico"},
	{Value: "nervoso", Label: "Nervoso"},
	{Value: "respiratorio", Label: "Respiratório"},
	{Value: "digestorio", Label: "Digestório"},
	{Value: "tegumentar", Label: "Pele e anexos"},
	{Value: "reprodutor", Label: "Reprodutor"},
	{Value: "urinario", Label: "Urinário"},
	{Value: "hemolinfatico", Label: "Sangue e linfático"},
	{Value: "musculoesqueletico", Label: "Musculoesquelético"},
	{Value: "cardiovascular", Label: "Cardiovascular"},
	{Value: "mamario", Label: "Glândula mamária"},
	{Value: "oftalmico", Label: "Olhos"},
}

// AgentTypes classify the cause.
var AgentTypes = []sdk.ContentOption{
	{Value: "virus", Label: "Vírus"},
	{Value: "bacteria", Label: "Bactéria"},
	{Value: "fungo", Label: "Fungo"},
	{Value: "protozoario", Label: "Protozoário"},
	{Value: "parasita", Label: "Helminto ou ectoparasita"},
	{Value: "prion", Label: "Príon"},
	{Value: "nao-infeccioso", Label: "Não infecciosa"},
}

// NotificationLists are the four lists of MAPA's Instrução Normativa nº
// 50/2013, which makes notifying the official veterinary service
// compulsory for any professional; each list has its own deadline.
var NotificationLists = []sdk.ContentOption{
	{Value: "1", Label: "Lista 1 — erradicada ou nunca registrada no país"},
	{Value: "2", Label: "Lista 2 — notificação imediata de caso suspeito"},
	{Value: "3", Label: "Lista 3 — notificação imediata de caso confirmado"},
	{Value: "4", Label: "Lista 4 — notificação mensal de caso confirmado"},
}

// NotificationDeadline is what a vet must do for a disease of each list
// (IN MAPA 50/2013: "imediata" means within 24 hours).
var NotificationDeadline = map[string]string{
	"1": "Notificação imediata (em até 24 horas) ao serviço veterinário oficial de qualquer caso suspeito ou diagnóstico laboratorial.",
	"2": "Notificação imediata (em até 24 horas) ao serviço veterinário oficial de qualquer caso suspeito.",
	"3": "Notificação imediata (em até 24 horas) ao serviço veterinário oficial de qualquer caso confirmado.",
	"4": "Notificação mensal ao serviço veterinário oficial dos casos confirmados.",
}

// DiseaseType is the declaration the core registers; the backoffice form
// and the editorial workflow come from it.
var DiseaseType = sdk.ContentType{
	ID: TypeID, Singular: "Doença", Plural: "Doenças", Icon: "stethoscope",
	Route: "/ferramentas/doencas",
	Fields: []sdk.ContentField{
		{Name: "synonyms", Label: "Sinônimos", Kind: sdk.ContentTags, Max: sdk.Bound(15), Listed: true, Searchable: true,
			Help: "Outros nomes pelos quais a doença é conhecida (também encontrados pela busca)."},
		{Name: "species", Label: "Espécies", Kind: sdk.ContentMultiSelect, Required: true, Options: Species,
			Listed: true, Filterable: true, Searchable: true},
		{Name: "body_system", Label: "Sistema acometido", Kind: sdk.ContentSelect, Required: true, Options: Systems,
			Listed: true, Filterable: true, Searchable: true},
		{Name: "agent_type", Label: "Tipo de agente", Kind: sdk.ContentSelect, Required: true, Options: AgentTypes, Filterable: true},
		{Name: "agent", Label: "Agente etiológico", Kind: sdk.ContentText, Required: true, Min: sdk.Bound(3), Max: sdk.Bound(400), Searchable: true},
		{Name: "transmission", Label: "Transmissão", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(10), Max: sdk.Bound(3000), Searchable: true},
		{Name: "zoonotic", Label: "Zoonose", Kind: sdk.ContentBoolean, Listed: true, Filterable: true,
			Help: "Marque quando a doença é transmissível às pessoas."},
		{Name: "sinais_clinicos", Label: "Sinais clínicos", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(5000), Searchable: true},
		{Name: "diagnostico", Label: "Diagnóstico", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(5000), Searchable: true},
		{Name: "tratamento", Label: "Princípios de tratamento", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(5000), Searchable: true,
			Help: "Princípios para o médico-veterinário, sem doses: a dose é decidida para cada paciente."},
		{Name: "prevencao", Label: "Prevenção e controle", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(5000), Searchable: true},
		{Name: "notifiable", Label: "Notificação obrigatória (MAPA)", Kind: sdk.ContentBoolean, Listed: true, Filterable: true,
			Help: "Doença das listas da Instrução Normativa MAPA nº 50/2013."},
		{Name: "notification_list", Label: "Lista da IN MAPA nº 50/2013", Kind: sdk.ContentSelect, Options: NotificationLists, Filterable: true},
		{Name: "notification_note", Label: "Observação sobre a notificação", Kind: sdk.ContentLongText, Max: sdk.Bound(600),
			Help: "Programa oficial, outras autoridades (vigilância em saúde) ou particularidades."},
		{Name: "woah_listed", Label: "Listada pela WOAH", Kind: sdk.ContentBoolean, Filterable: true,
			Help: "Doença da lista da Organização Mundial de Saúde Animal."},
		{Name: "references", Label: "Referências", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(10), Max: sdk.Bound(3000),
			Help: "Uma referência por linha."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "title"}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// Manifest describes the tool and its content type.
var Manifest = sdk.Manifest{
	ID: "doencas", Name: "Doenças",
	Description:    "Referência de doenças de cães, gatos, equinos, ruminantes, suínos, aves e exóticos, com busca, filtros e favoritos.",
	Version:        "1.0.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "stethoscope",
	Category:       "Clínica",
	Slug:           "doencas",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UICustom,
	ContentTypes:   []sdk.ContentType{DiseaseType},
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest:   Manifest,
		Migrations: Migrations,
		Handler:    func(h *sdk.Host) http.Handler { return Handler(h) },
		Content:    sdk.ContentHooks{ValidateContent: Validate, AfterPublish: AfterPublish, BeforeTransition: BeforeTransition},
		ExportUser: exportUser,
		DeleteUser: deleteUser,
	}
}

// Messages editors read beside the fields.
const (
	MsgListNeeded     = "Informe a lista da IN MAPA nº 50/2013 de uma doença de notificação obrigatória."
	MsgListWithout    = "Marque “Notificação obrigatória (MAPA)” ou deixe a lista em branco."
	MsgNoDoses        = "Descreva princípios de tratamento, sem doses (mg/kg, UI/kg…): a dose é decidida pelo médico-veterinário para cada paciente."
	MsgReferencesForm = "Informe ao menos uma referência, uma por linha."
)

// dosePattern finds a dose written per weight or per animal ("10 mg/kg",
// "0,5 ml/kg", "20.000 UI/kg", "5 mg por kg"): a reference read by tutors
// and vets alike states principles, never a prescription.
var dosePattern = regexp.MustCompile(`(?i)\d[\d.,]*\s*(mg|mcg|µg|ug|g|ml|ui|u)\s*(/|por)\s*(kg|animal|cabeça)`)

// Validate is the ValidateContent hook: a notifiable disease names its
// list (and only a notifiable one does), the treatment has no doses, and
// references are given one per line.
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	notifiable, _ := it.Fields["notifiable"].(bool)
	list := strings.TrimSpace(str(it.Fields["notification_list"]))
	switch {
	case notifiable && list == "":
		errs["notification_list"] = MsgListNeeded
	case !notifiable && list != "":
		errs["notification_list"] = MsgListWithout
	}
	if dosePattern.MatchString(str(it.Fields["tratamento"])) {
		errs["tratamento"] = MsgNoDoses
	}
	if refs, ok := it.Fields["references"].(string); ok && len(referenceLines(refs)) == 0 {
		errs["references"] = MsgReferencesForm
	}
	if len(errs) > 0 {
		return sdk.ContentCheck{Errors: errs}, nil
	}
	return sdk.ContentCheck{}, nil
}

func referenceLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); len([]rune(l)) >= 3 {
			out = append(out, l)
		}
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func label(opts []sdk.ContentOption, v string) string {
	for _, o := range opts {
		if o.Value == v {
			return o.Label
		}
	}
	return ""
}
